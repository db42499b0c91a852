// Bench program bot: one process per request, answering at once.
console.log('{"move": "00"}')
