// The judge's warm start of a Node.js program bot: warm.py's twin (see it,
// and harness.py's Warm). NODE_OPTIONS preloads this module once Node.js has
// started, before it loads the bot's file: here the process waits on the
// descriptor named by BOTJUDGE_WARM for the request's argument, erases the
// wait (the two variables, this module in require's cache, the descriptor)
// and returns; Node.js then runs the bot as its main module.
'use strict';
(function wait() {
  const fs = require('fs');
  const fd = Number(process.env.BOTJUDGE_WARM);
  delete process.env.BOTJUDGE_WARM;
  delete process.env.NODE_OPTIONS;
  const chunks = [];
  const buf = Buffer.alloc(1 << 16);
  for (;;) {
    let n;
    try {
      n = fs.readSync(fd, buf, 0, buf.length, null);
    } catch (err) {
      if (err.code === 'EAGAIN') continue;
      throw err;
    }
    if (n === 0) break;
    chunks.push(Buffer.from(buf.subarray(0, n)));
  }
  fs.closeSync(fd);
  const message = Buffer.concat(chunks);
  if (message.length === 0) process.exit(0);
  if (message[0] === 0x31) process.argv.push(message.subarray(1).toString());
  delete require.cache[__filename];
})();
