"""Chroma layout for Ponder's memory.

- ponder-run-<run_id>: the steps of one run, one record per step (id "<index>"), embedding of the step text,
  the exact Step JSON in metadata. One collection per run because a `where` filter on run_id costs tens of ms
  at 50k items while a small collection answers in < 1 ms. Its collection metadata is the runs registry entry
  (task, created, status, strategy, space), so listing runs needs no shared record that two runs could race on.
- ponder-sum-<run_id>: the running summaries of that run, each with the step range it covers.
- ponder-space-<name>: long-term memory of a named space (final answers and summaries of finished runs).
"""
from __future__ import annotations

import time
from collections import Counter
from typing import Sequence

import numpy as np

from core.chroma import ChromaServerError, get_collection, make_client
from core.embedding import MINILM_DIM, Embedder, embedder_name, get_embedder
from core.schema import Step
from core.secrets import redact, redact_model
from memory.records import Retrieved, RunInfo, SpaceItem, StepRecord, Summary, check_name

RUN_PREFIX = "ponder-run-"
SUMMARY_PREFIX = "ponder-sum-"
SPACE_PREFIX = "ponder-space-"
_PLACEHOLDER = np.eye(1, MINILM_DIM, dtype=np.float32)[0]  # a step's vector until it is embedded


def _ints(text: str) -> list[int]:
    return [int(part) for part in text.split(",") if part]


class Store:
    """All reads and writes of Ponder's memory in Chroma. Thread-safe to share within a process."""

    def __init__(self, client=None, embedder: Embedder | None = None):
        self.client = client if client is not None else make_client()
        self._embedder = embedder
        self._collections: dict[str, object] = {}

    @property
    def embedder(self) -> Embedder:
        if self._embedder is None:
            self._embedder = get_embedder()
        return self._embedder

    def _collection(self, name: str, **metadata):
        if name not in self._collections:
            self._collections[name] = get_collection(self.client, name, **metadata)
        return self._collections[name]

    def _existing(self, name: str):
        """The collection, or None without creating it (introspection must not invent runs)."""
        if name in self._collections:
            return self._collections[name]
        try:
            collection = self.client.get_collection(name, embedding_function=None)
        except ChromaServerError:  # the server is away: not "no such run" (that would hide stored steps)
            raise
        except Exception:  # Chroma raises NotFoundError / ValueError depending on the backend
            return None
        self._collections[name] = collection
        return collection

    # ---- runs ----

    def open_run(self, run_id: str, *, task: str = "", strategy: str = "", space: str | None = None) -> RunInfo:
        """Create the run's collection, or reopen it (resume) keeping its steps and registry entry."""
        check_name("run id", run_id)
        collection = self._existing(RUN_PREFIX + run_id) or self._collection(
            RUN_PREFIX + run_id, task=task, created=time.time(), status="running", strategy=strategy,
            space=space or "", embedder=self._embedder.name if self._embedder else embedder_name())
        info = self._info(run_id, collection)
        if task and not info.task:
            self.update_run(run_id, task=task)
            info.task = task
        return info

    def update_run(self, run_id: str, **fields) -> None:
        collection = self._collection(RUN_PREFIX + check_name("run id", run_id))
        metadata = dict(collection.metadata or {})
        metadata.update({key: value for key, value in fields.items() if value is not None})
        metadata.pop("hnsw:space", None)  # legacy key Chroma refuses to modify
        collection.modify(metadata=metadata)

    def run_annotations(self, run_id: str) -> dict[str, str]:
        """The run-level annotations (the plan, lessons) update_run stored as note_<kind>, by kind."""
        collection = self._existing(RUN_PREFIX + check_name("run id", run_id))
        meta = (collection.metadata or {}) if collection is not None else {}
        return {key[5:]: value for key, value in meta.items() if key.startswith("note_") and isinstance(value, str)}

    def run_info(self, run_id: str) -> RunInfo | None:
        collection = self._existing(RUN_PREFIX + check_name("run id", run_id))
        return None if collection is None else self._info(run_id, collection)

    def list_runs(self) -> list[RunInfo]:
        """Every run in the store, oldest first."""
        runs = []
        for collection in self.client.list_collections():
            if collection.name.startswith(RUN_PREFIX):
                runs.append(self._info(collection.name[len(RUN_PREFIX):], collection))
        return sorted(runs, key=lambda run: (run.created, run.run_id))

    @staticmethod
    def _info(run_id: str, collection) -> RunInfo:
        meta = collection.metadata or {}
        return RunInfo(run_id=run_id, task=meta.get("task", ""), created=float(meta.get("created", 0.0)),
                       status=meta.get("status", ""), steps=collection.count(), strategy=meta.get("strategy", ""),
                       space=meta.get("space", ""), answer=meta.get("answer", ""), parent=meta.get("parent", ""))

    # ---- steps ----

    def add_step(self, run_id: str, step: Step, embedding: np.ndarray | None, *, retrieved: Sequence[int] = (),
                 context_tokens: int | None = None, summary_upto: int | None = None) -> None:
        """Persist one step (upsert: re-adding a step after a resume never duplicates it).

        embedding None stores the step now and its vector later (embed_steps): searches skip it until then."""
        step = redact_model(step)  # a key a tool or the model echoed is not kept on disk
        metadata = self._step_metadata(run_id, step, retrieved)
        metadata["embedded"] = embedding is not None
        if embedding is None:
            embedding = _PLACEHOLDER
        if context_tokens is not None:
            metadata["context_tokens"] = context_tokens
        if summary_upto is not None:
            metadata["summary_upto"] = summary_upto
        self._collection(RUN_PREFIX + run_id).upsert(ids=[str(step.index)], embeddings=[embedding.tolist()],
                                                     documents=[step.as_text()], metadatas=[metadata])

    def add_steps(self, run_id: str, steps: Sequence[Step], embeddings: np.ndarray | None = None) -> None:
        """Persist many steps at once (imports, benchmarks), embedding them in one batch when not given."""
        if not steps:
            return
        steps = [redact_model(step) for step in steps]
        if embeddings is None:
            embeddings = self.embedder.embed([step.as_text() for step in steps])
        collection = self._collection(RUN_PREFIX + run_id)
        batch = 1000  # well under Chroma's max batch size
        for start in range(0, len(steps), batch):
            part = steps[start:start + batch]
            collection.upsert(ids=[str(step.index) for step in part],
                              embeddings=embeddings[start:start + batch].tolist(),
                              documents=[step.as_text() for step in part],
                              metadatas=[self._step_metadata(run_id, step, ()) for step in part])

    def embed_steps(self, run_id: str, steps: Sequence[Step]) -> None:
        """Give stored steps their vectors, in one batch (the compacting memory embeds at compaction)."""
        if not steps:
            return
        collection = self._collection(RUN_PREFIX + run_id)
        ids = [str(step.index) for step in steps]
        stored = collection.get(ids=ids, include=["metadatas"])
        metadata = {id_: {**meta, "embedded": True} for id_, meta in zip(stored["ids"], stored["metadatas"])}
        vectors = self.embedder.embed([step.as_text() for step in steps])
        collection.update(ids=ids, embeddings=vectors.tolist(), metadatas=[metadata[i] for i in ids])

    @staticmethod
    def _step_metadata(run_id: str, step: Step, retrieved: Sequence[int]) -> dict:
        return {"run_id": run_id, "index": step.index, "action": step.action, "kind": "step",
                "parse_status": step.parse_status.value, "started_at": step.started_at, "stored_at": time.time(),
                "step_json": step.model_dump_json(), "retrieved": ",".join(str(i) for i in retrieved)}

    def step_records(self, run_id: str) -> list[StepRecord]:
        collection = self._existing(RUN_PREFIX + check_name("run id", run_id))
        if collection is None:
            return []
        records = []
        for meta in collection.get(include=["metadatas"])["metadatas"]:
            records.append(StepRecord(step=Step.model_validate_json(meta["step_json"]),
                                      retrieved=_ints(meta.get("retrieved", "")),
                                      context_tokens=meta.get("context_tokens"),
                                      summary_upto=meta.get("summary_upto")))
        return sorted(records, key=lambda record: record.step.index)

    def load_steps(self, run_id: str) -> list[Step]:
        """The run's steps exactly as they were added, sorted by index ([] for an unknown run)."""
        return [record.step for record in self.step_records(run_id)]

    def search_steps(self, run_id: str, query: np.ndarray, n: int, *, before: int | None = None) -> list[Retrieved]:
        """The n stored steps most similar to query; before: only steps with a smaller index (all embedded)."""
        collection = self._collection(RUN_PREFIX + run_id)
        n = min(n, collection.count() if before is None else before)
        if n <= 0:
            return []
        where = {"index": {"$lt": before}} if before is not None else None
        result = collection.query(query_embeddings=[query.tolist()], n_results=n, where=where,
                                  include=["metadatas", "distances"])
        return [Retrieved(step=Step.model_validate_json(meta["step_json"]), similarity=1.0 - distance)
                for meta, distance in zip(result["metadatas"][0], result["distances"][0])]

    # ---- summaries ----

    def save_summary(self, run_id: str, summary: Summary) -> None:
        collection = self._collection(SUMMARY_PREFIX + run_id)
        text = redact(summary.text)
        collection.upsert(ids=[f"{summary.upto:08d}"], embeddings=[self.embedder.embed([text])[0].tolist()],
                          documents=[text],
                          metadatas=[{"run_id": run_id, "first": summary.first, "upto": summary.upto,
                                      "created": summary.created or time.time(), "seconds": summary.seconds,
                                      "tokens_in": summary.tokens_in, "tokens_out": summary.tokens_out,
                                      "by_model": summary.by_model}])

    def summaries(self, run_id: str) -> list[Summary]:
        """All summaries of the run, in the order they were written (the last is the current one)."""
        collection = self._existing(SUMMARY_PREFIX + check_name("run id", run_id))
        if collection is None:
            return []
        got = collection.get(include=["documents", "metadatas"])
        found = [Summary(text=text, first=int(meta["first"]), upto=int(meta["upto"]), created=float(meta["created"]),
                         seconds=float(meta.get("seconds", 0.0)), tokens_in=int(meta.get("tokens_in", 0)),
                         tokens_out=int(meta.get("tokens_out", 0)), by_model=bool(meta.get("by_model", True)))
                 for text, meta in zip(got["documents"], got["metadatas"])]  # older stores lack the costs
        return sorted(found, key=lambda summary: summary.upto)

    # ---- long-term memory spaces ----

    def remember(self, space: str, run_id: str, task: str, items: Sequence[tuple[str, str]]) -> None:
        """Store (kind, text) items of a finished run in the space; re-finishing a run replaces them."""
        items = [(kind, redact(text)) for kind, text in items if text.strip()]
        if not items:
            return
        collection = self._collection(SPACE_PREFIX + check_name("memory space", space))
        vectors = self.embedder.embed([text for _, text in items])  # one batch
        ids, kinds_seen = [], Counter()
        for kind, _ in items:  # several facts: fact, fact2, fact3... (one answer, one summary)
            kinds_seen[kind] += 1
            ids.append(f"{run_id}:{kind}" + (str(kinds_seen[kind]) if kinds_seen[kind] > 1 else ""))
        collection.upsert(ids=ids, embeddings=vectors.tolist(),
                          documents=[text for _, text in items],
                          metadatas=[{"run_id": run_id, "kind": kind, "task": task, "created": time.time()}
                                     for kind, _ in items])

    def search_space(self, space: str, query: np.ndarray, n: int, *, exclude_run: str = "") -> list[SpaceItem]:
        collection = self._collection(SPACE_PREFIX + space)
        count = collection.count()
        if count == 0 or n <= 0:
            return []
        # One extra per kind, so the current run's own items (after a resume) can be dropped without losing k.
        result = collection.query(query_embeddings=[query.tolist()], n_results=min(n + 2, count),
                                  include=["documents", "metadatas", "distances"])
        items = [SpaceItem(text=text, kind=meta["kind"], run_id=meta["run_id"], task=meta.get("task", ""),
                           similarity=1.0 - distance)
                 for text, meta, distance in zip(result["documents"][0], result["metadatas"][0],
                                                 result["distances"][0])
                 if meta["run_id"] != exclude_run]
        return items[:n]

    def space_items(self, space: str) -> list[SpaceItem]:
        collection = self._existing(SPACE_PREFIX + check_name("memory space", space))
        if collection is None:
            return []
        got = collection.get(include=["documents", "metadatas"])
        items = [SpaceItem(text=text, kind=meta["kind"], run_id=meta["run_id"], task=meta.get("task", ""),
                           similarity=1.0) for text, meta in zip(got["documents"], got["metadatas"])]
        return items

