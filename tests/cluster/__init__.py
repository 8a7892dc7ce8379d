"""A site of several hosts on one machine (network namespaces), its faults and its chaos run.

`python -m tests.cluster` builds it, checks a race through it and takes it down;
`--chaos --json FILE` runs the faults of issue 31.3 under load (docs/deploy.md section 10).
"""
