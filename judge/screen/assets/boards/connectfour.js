// The board of connectfour: the marks-in-a-row board its View is drawn by, shared
// with the other game of the mnk engine.

export * from '../inrow.js';
