"""Bench program bot: one process per request, answering at once."""
print('{"move": "00"}')
