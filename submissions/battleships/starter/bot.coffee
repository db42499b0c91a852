# BrainJar's starter bot, in CoffeeScript as the original contest's starter:
# run.sh calls `coffee bot.coffee $1`. It places its fleet in the top-left
# corner and shoots every cell in order, skipping those already shot.
req = JSON.parse(process.argv[2] ? require('fs').readFileSync(0, 'utf8'))

if req.cmd is 'init'
  fleet = {}
  for size, row in [2, 3, 4, 5]
    fleet[size] = point: "0#{row}", orientation: 'horizontal'
  console.log JSON.stringify fleet
else
  shot = new Set(req.hit.concat req.missed)
  cells = ("#{col}#{row}" for col in [0..7] for row in [0..7])
  console.log JSON.stringify move: [].concat(cells...).find (c) -> not shot.has c
