"""The judge's harness, by role (harness.py, beside this folder, runs it):

  main       the command line; serve() answers one game's requests
  channel    the protocol with the judge and the bot's log
  meter      what a move is charged; container: what the harness reads of its container
  answers    the words of a fault, and a bot's answer checked as JSON
  ia         ia(game, side) bots, run in the harness's own process
  virus      what the ia protocol knows of its game: the request's fields
  languages  how a program bot runs, from the judge's table (languages.json)
  program    program bots, one process per request; warmstart: started ahead
  server     HTTP bots, one server per game
  warden     PID 1 of a container reused across a bot's games
"""
