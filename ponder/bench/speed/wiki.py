"""Offline Wikipedia figures: corpus/BM25 load, dense index build, query latency per channel, top-5 hit rate.

    python -m ponder.bench.speed.wiki [--full-embed]

Everything runs in a fresh temporary index dir (cold), then again warm. --full-embed also embeds all 10k intros
from scratch (minutes on 1 thread) instead of extrapolating from a sample. Timings on a shared machine are noisy.
"""
from __future__ import annotations

import argparse
import statistics
import tempfile
import time

from core.embedding import get_embedder
from ponder.bench.speed.wiki_queries import RELEVANCE, is_hit  # the same agent-style queries the tests check
from tools.wiki_offline import OfflineWiki, default_corpus_path, embed_docs, load_corpus


def timed(fn):
    started = time.perf_counter()
    result = fn()
    return result, time.perf_counter() - started


def latency(label: str, fn, queries) -> None:
    samples = []
    for query in queries:
        _, seconds = timed(lambda: fn(query))
        samples.append(seconds * 1000)
    samples.sort()
    p95 = samples[min(len(samples) - 1, int(round(0.95 * (len(samples) - 1))))]
    print(f"  {label:<12} median {statistics.median(samples):7.1f} ms   p95 {p95:7.1f} ms   (n={len(samples)})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ponder.bench.speed.wiki", description=__doc__.splitlines()[0])
    parser.add_argument("--full-embed", action="store_true", help="embed the whole corpus, not a sample")
    args = parser.parse_args(argv)
    path = default_corpus_path()

    docs, seconds = timed(lambda: load_corpus(path))
    print(f"corpus parse: {len(docs)} intros in {seconds * 1000:.0f} ms")
    get_embedder().embed(["warm up"])

    with tempfile.TemporaryDirectory() as index_dir:
        _, cold = timed(lambda: OfflineWiki(corpus_path=path, index_dir=index_dir))
        wiki, warm = timed(lambda: OfflineWiki(corpus_path=path, index_dir=index_dir))
        print(f"OfflineWiki() load (corpus + title keys + BM25): cold {cold * 1000:.0f} ms (BM25 built and saved), "
              f"warm {warm * 1000:.0f} ms (BM25 loaded)")
        _, seconds = timed(wiki.build_index)
        print(f"dense index from shipped vectors into Chroma: {seconds:.1f} s")
        _, seconds = timed(lambda: OfflineWiki(corpus_path=path, index_dir=index_dir).build_index())
        print(f"dense index reopened by a new instance: {seconds * 1000:.0f} ms")

        sample = docs if args.full_embed else docs[:320]
        _, seconds = timed(lambda: embed_docs(sample, "embedding (benchmark)"))
        rate = len(sample) / seconds
        kind = "measured" if args.full_embed else f"extrapolated from {len(sample)}"
        print(f"embedding from scratch, 1 thread: {rate:.1f} intros/s -> full corpus {len(docs) / rate:.0f} s ({kind})")

        queries = [q for q, _ in RELEVANCE]
        titles = [e if isinstance(e, str) else e[0] for _, e in RELEVANCE]
        print("query latency (warm):")
        latency("title match", wiki.page, titles)
        latency("bm25", lambda q: wiki.bm25_search(q, 5), queries)
        latency("dense", lambda q: wiki.dense_search(q, 5), queries)
        latency("fused", lambda q: wiki.search(q, 5), queries)

        print("top-5 hit rate on the test table:")
        for label, search in (("bm25", wiki.bm25_search), ("dense", wiki.dense_search), ("fused", wiki.search)):
            hits = sum(is_hit(expected, search(query, 5)) for query, expected in RELEVANCE)
            print(f"  {label:<6} {hits}/{len(RELEVANCE)} = {hits / len(RELEVANCE):.0%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
