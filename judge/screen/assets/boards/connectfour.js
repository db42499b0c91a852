// The board of botsArena's connectfour: the marks-in-a-row board of games/mnk.
export * from './mnk.js';
