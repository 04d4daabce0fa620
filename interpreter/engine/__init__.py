"""The engine: a spec compiled into tables and closures (`game`), and the match it plays
(`state`): legal actions, contests, views and copies. It imports `rulespec` only."""
