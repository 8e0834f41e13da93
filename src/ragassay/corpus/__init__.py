"""A corpus: its documents (a folder of .txt/.md/.html/.pdf files, or a JSONL),
chunked by the strategies the bench compares, and where a quote sits in a document.
The bench builds its indexes from it and the test-set generator its questions."""

from ragassay.corpus.chunking import Chunk, ChunkerSpec, chunk_corpus, chunk_document
from ragassay.corpus.documents import CorpusError, Document, load_corpus
from ragassay.corpus.quotes import locate, quote_pattern

NO_ANSWER = "The handbook does not say."
"""What an answer says when the corpus does not answer the question: the bench's
offline generator abstains with it, a test set's unanswerable questions expect it."""

__all__ = ["NO_ANSWER", "Chunk", "ChunkerSpec", "CorpusError", "Document", "chunk_corpus",
           "chunk_document", "load_corpus", "locate", "quote_pattern"]
