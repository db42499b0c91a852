// Hostile battleships bot (JavaScript). Attacks: the CPU and the clock. It
// spins forever on its init request. Contained: killed at the move limit.
'use strict';
for (;;) {}
