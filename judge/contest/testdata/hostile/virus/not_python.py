/* Hostile virus bot. Attacks: the judge's start-up of a bot. It is a C
   program named .py. Contained: reported as a syntax error; it passes. */
#include <stdio.h>

int main(void) {
    printf("[0, 0]\n");
    return 0;
}
