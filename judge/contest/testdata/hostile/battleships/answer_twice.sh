#!/bin/sh
# Hostile battleships bot (shell). Attacks: the protocol, by answering twice
# to one request. Contained: only one JSON value is an answer; two are
# malformed.
echo '{"2":{"point":"00","orientation":"horizontal"},"3":{"point":"01","orientation":"horizontal"},"4":{"point":"02","orientation":"horizontal"},"5":{"point":"03","orientation":"horizontal"}}'
echo '{"2":{"point":"70","orientation":"vertical"},"3":{"point":"60","orientation":"vertical"},"4":{"point":"50","orientation":"vertical"},"5":{"point":"40","orientation":"vertical"}}'
