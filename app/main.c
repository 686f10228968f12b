/* main.c - ppflow's entry point: everything happens in cli_main. */
#include "cli.h"

int main(int argc, char **argv)
{
    return cli_main(argc, argv);
}
