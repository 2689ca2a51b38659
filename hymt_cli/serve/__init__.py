"""`hymt serve`: one engine kept in the background for many runs of one user, so that a shell
pipeline's `hymt translate` answers in a second instead of starting an engine for every line.

records.py: where this user's servers listen (the cache folder, private); wire.py: the socket's
messages, length-prefixed and checked; server.py: the engine served until idle; client.py: a
run's engine when a server of its settings runs; options.py: the idle time. The settings a
server is built from and matched by are the run's (run/serve_key.py)."""
