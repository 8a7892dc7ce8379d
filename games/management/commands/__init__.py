"""The commands themselves.

reap_races.py  advance every race whose countdown or time limit has passed (for cron)
"""
