// Hostile battleships bot (JavaScript). Attacks: the start of a bot. It is
// not valid JavaScript. Contained: node exits with an error, which is the
// bot's reported fault.
'use strict';
console.log(JSON.stringify({ move: '00' ));
