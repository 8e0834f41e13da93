"""A small HTTP/1.1 server on asyncio (h11 parses the protocol): keep-alive, chunked
bodies, `Expect: 100-continue`, bounded bodies and timeouts, and a drain that finishes
the requests in flight before it closes.

The monitor's receiver is its only user: `early` answers from a request's head alone
(a wrong path, a body too large, back-pressure while the queue is full, a drain) without
reading the body; `handle` gets the whole body.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import h11

READ_CHUNK = 1 << 16


@dataclass(frozen=True)
class Request:
    method: str
    path: str
    headers: dict[str, str]  # lowercase names; a repeated header's last value
    body: bytes = b""


@dataclass(frozen=True)
class Reply:
    status: int
    body: bytes = b""
    content_type: str = "application/json"
    headers: tuple[tuple[str, str], ...] = ()
    close: bool = False  # close the connection after it


Early = Callable[[Request], Reply | None]
Handle = Callable[[Request], Awaitable[Reply]]


@dataclass
class HttpServer:
    """Serves `handle` (after `early` let the request through) on host:port."""

    early: Early
    handle: Handle
    max_body: int = 16 << 20
    idle_s: float = 30.0  # a keep-alive connection idle this long is closed
    read_s: float = 30.0  # a request must arrive whole within this
    busy: int = 0  # requests being handled
    _server: asyncio.Server | None = None
    _conns: set[asyncio.StreamWriter] = field(default_factory=set)
    _idle: asyncio.Event = field(default_factory=asyncio.Event)

    async def bind(self, host: str, port: int) -> tuple[str, int]:
        """Take the address (OSError when it cannot) without serving yet; returns it
        (port 0: the one the system chose)."""
        self._idle.set()
        self._server = await asyncio.start_server(self._serve, host, port,
                                                  start_serving=False)
        name = self._server.sockets[0].getsockname()
        return str(name[0]), int(name[1])

    async def serve(self) -> None:
        """Start answering on the bound address."""
        assert self._server is not None
        await self._server.start_serving()

    async def start(self, host: str, port: int) -> tuple[str, int]:
        """Bind and serve; returns the address bound."""
        bound = await self.bind(host, port)
        await self.serve()
        return bound

    def stop_listening(self) -> None:
        """No new connection is accepted (those open are served by `early`'s rules)."""
        if self._server is not None:
            self._server.close()

    async def finish(self, timeout: float) -> None:
        """Wait (at most `timeout`) for the requests being handled to be answered."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._idle.wait(), timeout)

    async def close(self) -> None:
        """Close every connection (a request arriving on one meanwhile was answered by
        `early`)."""
        for writer in list(self._conns):
            writer.close()
        if self._server is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 2.0)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._conns.add(writer)
        conn = h11.Connection(h11.SERVER, max_incomplete_event_size=READ_CHUNK)
        try:
            while True:
                head = await self._next(conn, reader, self.idle_s)
                if not isinstance(head, h11.Request):
                    return
                if not await self._one(conn, reader, writer, head):
                    return
                if conn.our_state is h11.MUST_CLOSE or conn.their_state is h11.MUST_CLOSE:
                    return
                conn.start_next_cycle()
        except (TimeoutError, h11.RemoteProtocolError, ConnectionError,
                asyncio.IncompleteReadError):
            with contextlib.suppress(Exception):
                if conn.our_state in (h11.IDLE, h11.SEND_RESPONSE):
                    await self._send(conn, writer, Reply(400, b'{"message": "bad request"}',
                                                         close=True))
        finally:
            self._conns.discard(writer)
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()

    async def _one(self, conn: h11.Connection, reader: asyncio.StreamReader,
                   writer: asyncio.StreamWriter, head: h11.Request) -> bool:
        """Answer one request; False when the connection must close."""
        request = Request(head.method.decode("ascii", "replace").upper(),
                          head.target.decode("ascii", "replace").split("?", 1)[0],
                          {k.decode("latin-1").lower(): v.decode("latin-1")
                           for k, v in head.headers})
        length = request.headers.get("content-length", "")
        if length.isdigit() and int(length) > self.max_body:
            reply: Reply | None = Reply(413, b'{"message": "body too large"}', close=True)
        else:
            reply = self.early(request)
        if reply is not None:  # answered from the head: a body is read only if small
            small = (not length or (length.isdigit() and int(length) <= READ_CHUNK)) \
                and "transfer-encoding" not in request.headers \
                and not conn.they_are_waiting_for_100_continue
            if small and await self._body(conn, reader) is not None:
                await self._send(conn, writer, reply)
                return not reply.close
            await self._send(conn, writer, _closing(reply))
            return False
        if conn.they_are_waiting_for_100_continue:
            writer.write(conn.send(h11.InformationalResponse(status_code=100, headers=[])))
        body = await self._body(conn, reader)
        if body is None:
            await self._send(conn, writer, Reply(413, b'{"message": "body too large"}',
                                                 close=True))
            return False
        self.busy += 1
        self._idle.clear()
        try:
            reply = await self.handle(Request(request.method, request.path, request.headers,
                                              body))
        finally:
            self.busy -= 1
            if not self.busy:
                self._idle.set()
        await self._send(conn, writer, reply)
        return not reply.close

    async def _body(self, conn: h11.Connection, reader: asyncio.StreamReader) -> bytes | None:
        """The request's body (None past max_body)."""
        parts, size = [], 0
        while True:
            event = await self._next(conn, reader, self.read_s)
            if isinstance(event, h11.Data):
                size += len(event.data)
                if size > self.max_body:
                    return None
                parts.append(bytes(event.data))
            elif isinstance(event, h11.EndOfMessage):
                return b"".join(parts)
            else:
                raise ConnectionError("connection closed mid-request")

    @staticmethod
    async def _next(conn: h11.Connection, reader: asyncio.StreamReader, timeout: float
                    ) -> object:
        while True:
            event = conn.next_event()
            if event is not h11.NEED_DATA:
                return event
            data = await asyncio.wait_for(reader.read(READ_CHUNK), timeout)
            conn.receive_data(data)

    @staticmethod
    async def _send(conn: h11.Connection, writer: asyncio.StreamWriter, reply: Reply) -> None:
        headers = [("Content-Type", reply.content_type),
                   ("Content-Length", str(len(reply.body))), *reply.headers]
        if reply.close:
            headers.append(("Connection", "close"))
        writer.write(conn.send(h11.Response(status_code=reply.status, headers=headers)))
        if reply.body:
            writer.write(conn.send(h11.Data(data=reply.body)))
        writer.write(conn.send(h11.EndOfMessage()))
        await writer.drain()


def _closing(reply: Reply) -> Reply:
    return reply if reply.close else Reply(reply.status, reply.body, reply.content_type,
                                           reply.headers, close=True)
