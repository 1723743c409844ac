# `just ci` runs exactly what CI runs (just is optional: `bash .ci/run` is the same).
ci:
    bash .ci/run

# Accept changed golden transcripts, then read the diff.
bless:
    SNAPSHOTS=overwrite cargo test --test integration transcripts
    git diff --stat tests/transcripts
