#!/bin/sh
coffee bot.coffee $1
