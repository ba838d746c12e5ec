"""The AI's worker processes and their slots: what a worker process runs (an AI move, a position
judged for hints and reviews) and the fair queue of the pool's slots. Kept free of the web
framework: a worker process imports ``boardplay.web.workers.ai_worker`` and must not pay for
FastAPI (about two seconds of imports on a busy machine), so this package's face imports nothing."""
