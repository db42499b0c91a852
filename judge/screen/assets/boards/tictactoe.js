// The board of botsArena's tictactoe: the marks-in-a-row board of games/mnk.
export * from './mnk.js';
