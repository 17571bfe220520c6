"""Generate the bad-input half of the mail corpus: tests/data/mail/generated/.

    python tests/data/mail/generate.py          # (re)write generated/*.eml and *.expect.json
    python tests/data/mail/generate.py --check  # exit 1 if the files on disk differ

Every case is a mail as it would arrive on the wire plus what the service must
do with it when it reaches game ``baltica42`` (a Pax Baltica 12.1 game with
Sweden to act, see tests/e2e/corpus_game.py). The ``pipeline`` key of an
expect file is the manifest entry checked by tests/e2e/test_corpus.py:

| key | meaning |
|---|---|
| `outcome` | `answered` (exactly one reply), `unanswered` (handled, no reply: our own address) or `ignored` (none: auto-reply, bounce, list, loop) |
| `stores` | `{power: text}` of the orders the mail puts in force; `{}` = the game is unchanged |
| `rejected` | a fragment of why the mail (a section of it) was refused |
| `reply_contains` / `reply_excludes` | fragments of the reply's text |
| `versions` | how many order versions it stores (default: one per power in `stores`) |
| `also_queued` | other mails it causes, as `kind:recipient` (a sign-on warning) |
| `moderator_act` | true when the mail is a moderator's act (the deadline may move, the act is logged) |

Cases that would bloat the repository (mails over a few hundred kB) are not
written to disk: ``big_cases()`` builds them in memory for the test.
Everything here is deterministic: re-running the script rewrites the same bytes.
"""

from __future__ import annotations

import base64
import json
import quopri
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
OUT = HERE / "generated"
SERVICE = "gm@pbem.example"
ANNA = "anna@example.se"  # Sweden, password hunter2
BORIS = "boris@example.ru"  # the Coalition, password s-secret
HEAD = "GAME baltica42\nPOWER sweden hunter2\n"
ORD = "move from Skåne: Karl XII, Dalregementet to Småland\nrecon Livland"
ASCII_ORD = "recon Livland"
OK_ORD = ["OK  move from Skåne: Karl XII, Dalregementet to Småland", "OK  recon Livland"]
WRONG_PW = "sign-on as sweden failed: wrong password"
WARNING = f"warning:{ANNA}"


@dataclass
class Case:
    name: str
    raw: bytes
    description: str
    cls: str = "ordinary"
    pipeline: dict[str, Any] = field(default_factory=dict)

    def expect(self) -> dict[str, Any]:
        return {"description": self.description, "class": self.cls, "pipeline": self.pipeline}


# --- expectations -------------------------------------------------------------------------

def stores(text: str = ORD, power: str = "sweden", contains: list[str] | None = None,
           **more: Any) -> dict[str, Any]:
    ok = contains if contains is not None else [f"OK  {line}" for line in text.split("\n")]
    return {"outcome": "answered", "stores": {power: text}, "reply_contains": ok, **more}


def unchanged(contains: list[str] | None = None, **more: Any) -> dict[str, Any]:
    return {"outcome": "answered", "stores": {}, "reply_contains": contains or [], **more}


def refused(because: str, contains: list[str] | None = None, **more: Any) -> dict[str, Any]:
    return {"outcome": "answered", "stores": {}, "rejected": because,
            "reply_contains": contains or [because], **more}


def ignored() -> dict[str, Any]:
    return {"outcome": "ignored", "stores": {}}


def ignored_owner_warned() -> dict[str, Any]:
    """Not acted upon, but it holds Sweden's right password from no known address: Anna is
    warned (issue 22: the right password from elsewhere always reaches the owner)."""
    return {**ignored(), "also_queued": [f"warning:{ANNA}"]}


# --- building raw mail ----------------------------------------------------------------------

def crlf(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\n", "\r\n")


def headers(n: int, *, sender: str = ANNA, subject: str = "orders", extra: str = "",
            to: str = SERVICE, mid: str | None = None) -> str:
    """The usual header block (no trailing blank line); ``extra`` lines are appended."""
    lines = [f"From: {sender}", f"To: {to}", f"Subject: {subject}",
             "Date: Mon, 05 Jan 2026 10:00:00 +0100",
             f"Message-ID: {mid if mid is not None else f'<gen-{n:03d}@corpus.example>'}"]
    text = "\n".join(lines) + ("\n" + extra.strip("\n") if extra else "")
    return crlf(text)


def plain(n: int, body: str, *, charset: str = "utf-8", cte: str = "8bit",
          codec: str | None = None, **kw: Any) -> bytes:
    """A single text/plain mail; ``codec`` encodes the text when it differs from the label."""
    payload = encode_body(crlf(body), codec or charset, cte)
    extra = kw.pop("extra", "")
    ct = f'MIME-Version: 1.0\nContent-Type: text/plain; charset="{charset}"\n' \
         f"Content-Transfer-Encoding: {cte}"
    return (headers(n, extra=ct + ("\n" + extra if extra else ""), **kw) + "\r\n\r\n").encode() + payload


def encode_body(text: str, codec: str, cte: str) -> bytes:
    data = text.encode(codec, errors="replace") if codec else text.encode("utf-8")
    cte = cte.strip().lower()
    if cte == "base64":
        return base64.encodebytes(data).replace(b"\n", b"\r\n")
    if cte == "quoted-printable":
        return quopri.encodestring(data.replace(b"\r\n", b"\n")).replace(b"\n", b"\r\n")
    return data


def part(ctype: str, body: str, *, charset: str = "utf-8", cte: str = "8bit",
         extra: str = "") -> bytes:
    head = f'Content-Type: {ctype}; charset="{charset}"\r\nContent-Transfer-Encoding: {cte}\r\n'
    if extra:
        head += crlf(extra.strip("\n")) + "\r\n"
    return head.encode() + b"\r\n" + encode_body(crlf(body), charset, cte)


def multipart(n: int, subtype: str, parts: list[bytes], *, boundary: str = "=_b0",
              close: bool = True, **kw: Any) -> bytes:
    ct = f'MIME-Version: 1.0\nContent-Type: multipart/{subtype}; boundary="{boundary}"'
    extra = kw.pop("extra", "")
    out = (headers(n, extra=ct + ("\n" + extra if extra else ""), **kw) + "\r\n\r\n").encode()
    out += b"This is a multi-part message in MIME format.\r\n"
    for p in parts:
        out += f"\r\n--{boundary}\r\n".encode() + p
    if close:
        out += f"\r\n--{boundary}--\r\n".encode()
    return out


def html_of(text: str, entities: bool = False) -> str:
    def esc(line: str) -> str:
        line = line.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        if entities:
            line = line.replace("å", "&aring;").replace("ä", "&#228;").replace("ö", "&#xf6;")
        return line
    rows = "".join(f"<div>{esc(line) or '<br>'}</div>\n" for line in text.split("\n"))
    return f'<html><head><meta charset="utf-8"><style>div {{color: red}}</style></head>' \
           f'<body dir="ltr">\n{rows}</body></html>\n'


def attachment(name: str, data: bytes, ctype: str = "application/octet-stream") -> bytes:
    return (f'Content-Type: {ctype}; name="{name}"\r\nContent-Transfer-Encoding: base64\r\n'
            f'Content-Disposition: attachment; filename="{name}"\r\n\r\n').encode() \
        + base64.encodebytes(data).replace(b"\n", b"\r\n")


def noise(size: int, seed: int) -> bytes:
    """Deterministic incompressible-looking bytes (no random module state involved)."""
    out = bytearray()
    x = seed or 1
    while len(out) < size:
        x = (x * 6364136223846793005 + 1442695040888963407) % 2**64
        out += x.to_bytes(8, "little")
    return bytes(out[:size])


# --- the cases --------------------------------------------------------------------------------

class Corpus:
    def __init__(self, first: int = 100) -> None:
        self.n = first
        self.cases: list[Case] = []

    def add(self, slug: str, raw_or_fn: Any, description: str, pipeline: dict[str, Any],
            cls: str = "ordinary") -> None:
        raw = raw_or_fn(self.n) if callable(raw_or_fn) else raw_or_fn
        self.cases.append(Case(f"{self.n:03d}_{slug}", raw, description, cls, pipeline))
        self.n += 1


def encodings(c: Corpus) -> None:
    """Every charset x transfer encoding x structure a client may pick, all with real orders."""
    body = HEAD + ORD + "\n"
    for charset in ("utf-8", "iso-8859-1", "windows-1252", "iso-8859-15"):
        for cte in ("8bit", "quoted-printable", "base64"):
            c.add(f"plain_{charset}_{cte}", lambda n, cs=charset, t=cte: plain(n, body, charset=cs, cte=t),
                  f"text/plain, {charset}, {cte}", stores())
            c.add(f"html_only_{charset}_{cte}", lambda n, cs=charset, t=cte: multipart(
                n, "mixed", [part("text/html", html_of(body, entities=True), charset=cs, cte=t)]),
                f"HTML only (entities for the accents), {charset}, {cte}", stores())
            c.add(f"alternative_{charset}_{cte}", lambda n, cs=charset, t=cte: multipart(
                n, "alternative", [part("text/plain", body, charset=cs, cte=t),
                                   part("text/html", html_of(body), charset=cs, cte=t)]),
                f"multipart/alternative, {charset}, {cte}: the plain part is read", stores())
            c.add(f"mixed_with_pdf_{charset}_{cte}", lambda n, cs=charset, t=cte: multipart(
                n, "mixed", [part("text/plain", body, charset=cs, cte=t),
                             attachment("map.pdf", noise(3000, n), "application/pdf")]),
                f"text plus a PDF, {charset}, {cte}: orders read, attachment named in the reply",
                stores(contains=[*OK_ORD, "Attachments are not read (map.pdf)"]))
    c.add("utf16_base64", lambda n: plain(n, body, charset="utf-16", cte="base64"),
          "UTF-16 with BOM, base64", stores())
    for label in ("Quoted-Printable", "BASE64"):
        c.add(f"cte_spelling_{label.strip().lower()}_{label[0]}", lambda n, lb=label: plain(
            n, body, cte=lb), f"Content-Transfer-Encoding written as {label!r}", stores())
    c.add("cte_spelling_padded_base64", lambda n: plain(n, body, cte=" base64 "),
          "Content-Transfer-Encoding ' base64 ' (spaces): still base64, the orders are read",
          stores())


def charsets(c: Corpus) -> None:
    """Unknown, misspelt and lying charset labels: the ASCII orders must always be read."""
    body = HEAD + ASCII_ORD + "\nCheers, Anna\n"
    for label in ("x-unknown", "utf8", "UTF-8", "latin1", "unicode-1-1-utf-7", "", "us-ascii",
                  "koi8-r", "gb2312", "shift_jis", "big5", "iso-2022-jp", "x-mac-roman",
                  "cp65001", "utf-8\\\"junk", "ISO_8859-1:1987", "windows-1258", "ebcdic-bogus"):
        slug = "".join(ch if ch.isalnum() else "_" for ch in label) or "empty"
        c.add(f"charset_{slug}", lambda n, lb=label: plain(n, body, charset=lb, cte="8bit",
                                                              codec="ascii"),
              f"charset label {label!r} on ASCII orders", stores(ASCII_ORD))
    lying = [("utf-8", "latin-1", "utf-8 label, latin-1 bytes"),
             ("us-ascii", "utf-8", "us-ascii label, utf-8 bytes"),
             ("iso-8859-1", "utf-8", "latin-1 label, utf-8 bytes (mojibake: the accented names fail)"),
             ("x-unknown", "utf-8", "unknown label, utf-8 bytes"),
             ("windows-1252", "windows-1252", "windows-1252 with smart quotes around orders")]
    for label, codec, what in lying:
        expect = stores()
        if label == "iso-8859-1":  # bytes are valid latin-1: 'SkÃ¥ne' is read, and not a territory
            expect = stores(ASCII_ORD, contains=["OK  recon Livland", "not understood at"])
        text = body if "smart" not in what else HEAD + "\u201crecon Livland\u201d\n"
        if "smart" in what:
            expect = unchanged(["\u201crecon Livland\u201d"])
        else:
            text = HEAD + ORD + "\n"
        c.add(f"lying_charset_{label}_{codec}", lambda n, lb=label, cd=codec, t=text: plain(
            n, t, charset=lb, cte="8bit", codec=cd), what, expect)
    c.add("encoded_word_unknown_charset_subject", lambda n: plain(
        n, body, subject="=?x-klingon?Q?orders_for_autumn?="), "Subject in an unknown charset",
        stores(ASCII_ORD))
    c.add("encoded_word_broken_base64_from_name", lambda n: plain(
        n, body, sender=f"=?utf-8?B?QW5u?=YQ== <{ANNA}>"), "From name: broken encoded word",
        stores(ASCII_ORD))
    c.add("encoded_word_from_address_itself", lambda n: plain(
        n, body, sender="=?utf-8?Q?anna=40example=2Ese?="),
        "From address hidden in an encoded word: no usable address, nobody to answer", ignored_owner_warned())


def malformed(c: Corpus) -> None:
    """Broken MIME structure: never a crash, always one answer."""
    body = HEAD + ASCII_ORD + "\n"
    text = part("text/plain", body)
    c.add("multipart_without_boundary", lambda n: (headers(n, extra=(
        "MIME-Version: 1.0\nContent-Type: multipart/mixed")) + "\r\n\r\n").encode()
        + crlf("--x\nContent-Type: text/plain\n\n" + body + "--x--\n").encode(),
        "multipart with no boundary parameter: the body is read as text",
        stores(ASCII_ORD))
    c.add("boundary_never_closed", lambda n: multipart(n, "mixed", [text], close=False),
          "the closing boundary is missing", stores(ASCII_ORD))
    c.add("boundary_not_present", lambda n: multipart(n, "mixed", [text], boundary="b1").replace(
        b"--b1", b"--b2"), "the declared boundary never occurs: the body is read as text",
          stores(ASCII_ORD))
    c.add("empty_multipart", lambda n: multipart(n, "mixed", []), "multipart with no part",
          unchanged())
    c.add("multipart_only_preamble", lambda n: (headers(n, extra=(
        'MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="q"')) + "\r\n\r\n"
        + crlf(body)).encode(), "orders in a multipart with no parts: the body is read as text",
          stores(ASCII_ORD))

    def nested(n: int, depth: int) -> bytes:
        inner = text
        for d in range(depth):
            inner = (f'Content-Type: multipart/mixed; boundary="n{d}"\r\n\r\n--n{d}\r\n').encode() \
                + inner + f"\r\n--n{d}--\r\n".encode()
        return (headers(n, extra="MIME-Version: 1.0") + "\r\n").encode() + inner
    for depth in (3, 30, 200):
        expect = stores(ASCII_ORD)
        c.add(f"nested_multipart_{depth}", lambda n, d=depth: nested(n, d),
              f"text nested {depth} multiparts deep", expect)
    c.add("part_without_headers", lambda n: multipart(n, "mixed", [b"\r\n" + crlf(body).encode()]),
          "a part with no headers at all (defaults to text/plain)", stores(ASCII_ORD))
    c.add("header_line_without_colon", lambda n: (headers(n) + "\r\nThis is not a header\r\n\r\n"
                                                   + crlf(body)).encode(),
          "a header line with no colon: the body starts there", stores(ASCII_ORD))
    c.add("nul_bytes_in_body", lambda n: plain(n, HEAD + "recon Livland\x00\n\x00\x00\n"),
          "NUL bytes in the body", unchanged(["Livland"]))
    c.add("nul_byte_in_subject", lambda n: plain(n, body, subject="ord\x00ers"),
          "a NUL byte in the Subject", stores(ASCII_ORD))
    c.add("base64_invalid_characters", lambda n: plain(n, body, cte="base64").replace(
        b"\r\n", b"!!*\r\n", 8), "base64 with characters outside the alphabet", unchanged())
    c.add("base64_missing_padding", lambda n: plain(n, body, cte="base64").rstrip(b"=\r\n"),
          "base64 with its padding cut: decoded leniently", stores(ASCII_ORD))
    c.add("base64_truncated", lambda n: plain(n, HEAD + ASCII_ORD + "\n" + "x" * 300, cte="base64")[:-200],
          "base64 cut in the middle (a truncated download)", stores(ASCII_ORD))
    c.add("qp_invalid_escapes", lambda n: plain(n, body, cte="quoted-printable").replace(
        b"Livland", b"Livland=ZZ=\r\n=G"), "quoted-printable with invalid escapes", unchanged())
    c.add("qp_soft_break_at_end", lambda n: plain(n, body, cte="quoted-printable") + b"=",
          "quoted-printable ending in a soft line break", stores(ASCII_ORD))
    c.add("content_type_garbage", lambda n: (headers(n, extra="Content-Type: text/; ;;; charset")
                                             + "\r\n\r\n" + crlf(body)).encode(),
          "an unparseable Content-Type", stores(ASCII_ORD))
    c.add("content_type_application_only", lambda n: (headers(n, extra="MIME-Version: 1.0\n"
          "Content-Type: application/octet-stream") + "\r\n\r\n" + crlf(body)).encode(),
          "the whole mail labelled application/octet-stream: no text to read",
          unchanged(["Attachments are not read"]))
    c.add("text_part_marked_attachment", lambda n: multipart(n, "mixed", [part(
        "text/plain", body, extra='Content-Disposition: attachment; filename="orders.txt"')]),
          "the only text part is an attachment: not read", unchanged(["orders.txt"]))
    c.add("two_text_parts", lambda n: multipart(n, "mixed", [
        part("text/plain", body), part("text/plain", "recon Ingermanland\n")]),
          "two inline text parts: read in order", stores("recon Livland\nrecon Ingermanland"))
    c.add("forwarded_rfc822_with_orders", lambda n: multipart(n, "mixed", [
        part("text/plain", "see below\n"),
        b"Content-Type: message/rfc822\r\n\r\n" + plain(9000 + n, body)]),
          "orders only inside a forwarded message: not read",
          unchanged(["Attachments are not read"]))
    c.add("eight_bit_header_bytes", lambda n: (headers(n, subject="ordres d'\xe9t\xe9") + "\r\n\r\n"
                                               + crlf(body)).encode("latin-1"),
          "raw latin-1 bytes in the Subject", stores(ASCII_ORD))
    c.add("ten_thousand_headers", lambda n: (headers(n, extra="\n".join(
        f"X-Junk-{i}: {i}" for i in range(10000))) + "\r\n\r\n" + crlf(body)).encode(),
          "ten thousand headers", stores(ASCII_ORD))
    c.add("huge_folded_header", lambda n: (headers(n, extra="X-Long: " + "\n ".join(
        ["a" * 70] * 3000)) + "\r\n\r\n" + crlf(body)).encode(), "one header folded 3000 times",
        stores(ASCII_ORD))
    c.add("bare_cr_line_ends", lambda n: (headers(n) + "\r\n\r\n").encode()
          + body.replace("\n", "\r").encode(), "body lines ended by bare CR", stores(ASCII_ORD))
    c.add("mixed_line_ends", lambda n: (headers(n) + "\r\n\r\n").encode()
          + b"GAME baltica42\nPOWER sweden hunter2\r\nrecon Livland\r\n",
          "LF and CRLF mixed", stores(ASCII_ORD))
    c.add("headers_only_no_separator", lambda n: headers(n).encode(),
          "only headers, no blank line, no body", unchanged(["No orders were found"]))
    c.add("no_blank_line_before_body", lambda n: (headers(n) + "\r\n" + crlf(body)).encode(),
          "the body starts right after the headers: the first non-header line starts it",
          stores(ASCII_ORD))
    c.add("duplicate_message_id", lambda n: (headers(n, extra=f"Message-ID: <dup-{n}@corpus.example>")
                                             + "\r\n\r\n" + crlf(body)).encode(),
          "two Message-ID headers", stores(ASCII_ORD))
    c.add("two_from_headers", lambda n: (headers(n, extra="From: mallory@evil.example") + "\r\n\r\n"
                                         + crlf(body)).encode(),
          "two From headers: the first is the sender", stores(ASCII_ORD))
    c.add("from_group_syntax", lambda n: plain(n, body, sender=f"players: {ANNA};"),
          "From in group syntax", stores(ASCII_ORD))
    c.add("from_two_addresses", lambda n: plain(n, body, sender=f"{ANNA}, mallory@evil.example"),
          "two addresses in From: the first answers", stores(ASCII_ORD))
    c.add("message_id_with_spaces", lambda n: plain(n, body, mid="<a b c@corpus.example>"),
          "a Message-ID with spaces", stores(ASCII_ORD))
    c.add("message_id_empty", lambda n: plain(n, body, mid=""), "an empty Message-ID",
          stores(ASCII_ORD))
    c.add("date_garbage", lambda n: (crlf(headers(n).replace("Mon, 05 Jan 2026 10:00:00 +0100",
                                                             "yesterday at noon")) + "\r\n\r\n"
                                     + crlf(body)).encode(), "an unparseable Date", stores(ASCII_ORD))
    c.add("date_year_99999", lambda n: (crlf(headers(n).replace("2026", "99999")) + "\r\n\r\n"
                                        + crlf(body)).encode(), "a Date in year 99999",
          stores(ASCII_ORD))
    c.add("mime_version_2", lambda n: plain(n, body).replace(b"MIME-Version: 1.0", b"MIME-Version: 2.0"),
          "MIME-Version 2.0", stores(ASCII_ORD))
    c.add("param_rfc2231_charset", lambda n: (headers(n, extra=(
        "MIME-Version: 1.0\nContent-Type: text/plain; charset*=utf-8''utf-8; format*=flowed")) + "\r\n\r\n"
        + crlf(body)).encode(), "RFC 2231 parameters on the text part", stores(ASCII_ORD))
    c.add("boundary_inside_body_text", lambda n: multipart(n, "mixed", [
        part("text/plain", body + "--=_b0 is not a boundary here\n")]),
          "a line that looks like the boundary", stores(ASCII_ORD))


def big(c: Corpus) -> None:
    body = HEAD + ASCII_ORD + "\n"
    c.add("attachment_300k", lambda n: multipart(n, "mixed", [
        part("text/plain", body), attachment("army.png", noise(300_000, n), "image/png")]),
          "a 300 kB picture attached", stores(ASCII_ORD, contains=["OK  recon Livland", "army.png"]))
    c.add("two_hundred_attachments", lambda n: multipart(n, "mixed", [part("text/plain", body)] + [
        attachment(f"f{i}.bin", noise(50, i)) for i in range(200)]),
          "two hundred small attachments", stores(ASCII_ORD, contains=["OK  recon Livland", "f199.bin"]))
    c.add("attachment_crlf_filename", lambda n: multipart(n, "mixed", [
        part("text/plain", body),
        b'Content-Type: application/pdf\r\nContent-Disposition: attachment; '
        b'filename="=?utf-8?b?YS5wZGYNCkJjYzogdmljdGltQGV4YW1wbGUuY29t?="\r\n'
        b"Content-Transfer-Encoding: base64\r\n\r\nAAAA\r\n"]),
          "an attachment name hiding CR LF and a Bcc header", stores(ASCII_ORD, contains=["OK  recon Livland"]))
    c.add("inline_image_only", lambda n: multipart(n, "related", [
        b"Content-Type: image/jpeg\r\nContent-Transfer-Encoding: base64\r\n\r\n"
        + base64.encodebytes(noise(5000, n))]), "only an inline image", unchanged())


def big_cases() -> list[Case]:
    """Mails too big to check in: built for the test, not written to disk."""
    body = HEAD + ASCII_ORD + "\n"
    out = []
    for name, size, expect in (
        ("900_attachment_9mb", 9_000_000, stores(ASCII_ORD)),
        ("901_attachment_11mb", 11_000_000,
         unchanged(["mails over 10 MB are not read"], reply_excludes=["OK  recon Livland"])),
    ):
        raw = multipart(900, "mixed", [part("text/plain", body),
                                       attachment("film.mp4", noise(size * 3 // 4, 7), "video/mp4")],
                        mid=f"<{name}@corpus.example>")
        out.append(Case(name, raw, f"a {size // 1_000_000} MB mail", "ordinary", expect))
    line = "x" * 2_000_000
    out.append(Case("902_two_megabyte_line", plain(902, HEAD + ASCII_ORD + "\n" + line + "\n",
                                                   mid="<902@corpus.example>"),
                    "a 2 MB line after the orders", "ordinary",
                    stores(ASCII_ORD, contains=["OK  recon Livland", "the line is too long"])))
    return out


def html(c: Corpus) -> None:
    """HTML-only mail: what is drawn is read, what is hidden or quoted is not."""
    def h(n: int, markup: str, charset: str = "utf-8") -> bytes:
        return multipart(n, "alternative", [part("text/html", markup, charset=charset)])
    rows = "<p>GAME baltica42<br>POWER sweden hunter2<br>recon Livland</p>"
    for slug, markup, expect in (
        ("script_holds_orders", f"{rows}<script>recon Ingermanland</script>", stores(ASCII_ORD)),
        ("style_holds_orders", f"<style>recon Ingermanland</style>{rows}", stores(ASCII_ORD)),
        ("comment_holds_orders", f"{rows}<!-- recon Ingermanland -->", stores(ASCII_ORD)),
        ("blockquote_old_orders", f"{rows}<blockquote>recon Ingermanland</blockquote>", stores(ASCII_ORD)),
        ("uppercase_tags", rows.upper().replace("HUNTER2", "hunter2").replace("LIVLAND", "Livland"),
         stores(ASCII_ORD)),
        ("table_layout", "<table><tr><td>GAME baltica42</td></tr><tr><td>POWER sweden hunter2</td></tr>"
         "<tr><td>recon Livland</td></tr></table>", stores(ASCII_ORD)),
        ("list_items", "<p>GAME baltica42</p><p>POWER sweden hunter2</p><ul><li>recon Livland</li></ul>",
         stores(ASCII_ORD)),
        ("unclosed_tags", "<div>GAME baltica42<div>POWER sweden hunter2<div>recon Livland<b><i>",
         stores(ASCII_ORD)),
        ("nbsp_everywhere", "<div>GAME&nbsp;baltica42</div><div>POWER&nbsp;sweden&nbsp;hunter2</div>"
         "<div>recon&nbsp;&nbsp;Livland&nbsp;</div>", stores("recon Livland")),
        ("numeric_entities", "<div>GAME baltica42</div><div>POWER sweden hunter2</div><div>move from "
         "Sk&#229;ne: Karl XII, Dalregementet to Sm&#xE5;land</div>",
         stores("move from Skåne: Karl XII, Dalregementet to Småland")),
        ("pre_block", "<pre>GAME baltica42\nPOWER sweden hunter2\nrecon Livland\n</pre>", stores(ASCII_ORD)),
        ("cdata_and_doctype", "<!DOCTYPE html><html><body><![CDATA[x]]>" + rows + "</body></html>",
         stores(ASCII_ORD)),
        ("entity_injection", "<div>GAME baltica42</div><div>POWER sweden hunter2</div>"
         "<div>recon &lt;script&gt;Livland</div>",
         unchanged(["recon <script>Livland"])),
        ("meta_charset_latin1", "<html><head><meta charset=iso-8859-1></head><body>" + rows
         + "<p>Hälsningar</p></body></html>", stores(ASCII_ORD)),
        ("empty_html", "<html><body></body></html>", unchanged(["No orders were found"])),
        ("huge_html_nesting", "<div>" * 5000 + rows + "</div>" * 5000, stores(ASCII_ORD)),
    ):
        c.add(f"html_{slug}", lambda n, m=markup: h(n, m), f"HTML only: {slug.replace('_', ' ')}", expect)


def passwords(c: Corpus) -> None:
    """Wrong passwords: refused, nothing stored, the seat's owner warned."""
    for slug, line in (("wrong", "POWER sweden hunter3"), ("uppercase", "POWER sweden HUNTER2"),
                       ("prefix", "POWER sweden hunter"), ("longer", "POWER sweden hunter22"),
                       ("other_powers", "POWER sweden s-secret"),
                       ("moderators", "POWER sweden modsecret"),
                       ("fullwidth_digit", "POWER sweden hunter\uff12"),
                       ("ten_kilobytes", "POWER sweden " + "h" * 10_000),
                       ("comment_cuts_it", "POWER sweden hun#ter2"),
                       ("quoted", 'POWER sweden "hunter2"')):
        c.add(f"password_{slug}", lambda n, ln=line: plain(n, f"GAME baltica42\n{ln}\n{ASCII_ORD}\n"),
              f"wrong password: {slug.replace('_', ' ')}", refused(WRONG_PW, also_queued=[WARNING]))
    c.add("password_with_spaces", lambda n: plain(n, f"GAME baltica42\nPOWER sweden ' OR '1'='1\n{ASCII_ORD}\n"),
          "a 'password' of several words (SQL): the POWER line is not understood",
          refused("orders without a sign-on", contains=["command not understood"]))
    c.add("password_missing", lambda n: plain(n, f"GAME baltica42\nPOWER sweden\n{ASCII_ORD}\n"),
          "POWER without a password", refused("POWER needs a password"))
    c.add("password_trailing_spaces", lambda n: plain(n, f"GAME baltica42\nPOWER sweden hunter2   \n{ASCII_ORD}\n"),
          "the right password with trailing spaces", stores(ASCII_ORD))
    c.add("password_right_from_stranger", lambda n: plain(
        n, HEAD + ASCII_ORD + "\n", sender="anna.other@example.com"),
          "the right password from another address: accepted, copied to the seat",
          stores(ASCII_ORD, also_queued=[f"reply-copy:{ANNA}"]))
    c.add("moderator_wrong_password", lambda n: plain(
        n, "GAME baltica42\nMODERATOR guess\nADJUDICATE NOW\n", sender="mallory@evil.example"),
          "a moderator sign-on with a guessed password", refused("moderator sign-on failed"))
    c.add("moderator_password_as_player", lambda n: plain(
        n, "GAME baltica42\nPOWER moderator modsecret\nADJUDICATE NOW\n"),
          "the moderator's password used in a POWER line",
          refused("has no power 'moderator'"))
    c.add("player_tries_moderator_command", lambda n: plain(n, HEAD + "ADJUDICATE NOW\nSET turn = 9\n"),
          "a player using moderator commands", unchanged(["only the moderator may"]))


def other_power(c: Corpus) -> None:
    c.add("for_coalition", lambda n: plain(n, HEAD + "FOR coalition\nrecon Livland\n"),
          "Sweden writes FOR coalition", unchanged(["you may not give orders for 'coalition'"]))
    c.add("for_unknown_power", lambda n: plain(n, HEAD + "FOR denmark\nrecon Livland\n"),
          "FOR a power not in the game", unchanged(["you may not give orders for 'denmark'"]))
    c.add("signon_as_coalition_with_swedish_password", lambda n: plain(
        n, "GAME baltica42\nPOWER coalition hunter2\nrecon Livland\n"),
          "Sweden's password for the Coalition", refused("sign-on as coalition failed: wrong password",
                                                         also_queued=[f"warning:{BORIS}"]))
    c.add("coalition_orders_out_of_turn", lambda n: plain(
        n, "GAME baltica42\nPOWER coalition s-secret\nreconnaitre Estland\n", sender=BORIS),
          "the Coalition orders in Sweden's action phase", unchanged(["1700-autumn-actions-sweden"]))
    c.add("two_sections_one_bad", lambda n: plain(
        n, HEAD + ASCII_ORD + "\nPOWER coalition wrong\nreconnaitre Estland\n"),
          "a good Swedish section and a bad Coalition one: only the bad one is refused",
          {**stores(ASCII_ORD), "rejected": "sign-on as coalition failed", "also_queued": [f"warning:{BORIS}"]})
    c.add("orders_before_signon", lambda n: plain(n, "GAME baltica42\nrecon Livland\nPOWER sweden hunter2\n"),
          "orders before the sign-on", refused("orders without a sign-on"))
    c.add("power_name_in_caps_and_accents", lambda n: plain(n, "GAME baltica42\nPOWER SWÉDEN hunter2\nrecon Livland\n"),
          "the power written in capitals with an accent", stores(ASCII_ORD))
    c.add("press_to_unknown", lambda n: plain(n, HEAD + "PRESS TO denmark\nhello\nENDPRESS\n"),
          "press to a power not in the game", unchanged(["denmark"]))


def phases(c: Corpus) -> None:
    for slug, line, expect in (
        ("coalition_phase", "PHASE 1700-autumn-actions-coalition",
         refused("your PHASE line says 1700-autumn-actions-coalition")),
        ("old_phase", "PHASE 1700-autumn-action-roll", refused("your PHASE line says")),
        ("next_year", "PHASE 1701-spring-actions-sweden", refused("your PHASE line says")),
        ("garbage", "PHASE <script>", refused("your PHASE line says")),
        ("right_in_capitals", "PHASE 1700-AUTUMN-ACTIONS-SWEDEN", stores(ASCII_ORD)),
        ("right", "PHASE 1700-autumn-actions-sweden", stores(ASCII_ORD)),
    ):
        c.add(f"phase_{slug}", lambda n, ln=line: plain(n, f"{HEAD}{ln}\n{ASCII_ORD}\n"),
              f"PHASE line: {slug.replace('_', ' ')}", expect)
    c.add("unknown_game", lambda n: plain(n, "GAME baltica43\nPOWER sweden hunter2\nrecon Livland\n"),
          "a game that does not exist", refused("there is no game 'baltica43'"))
    c.add("game_and_plus_tag_disagree", lambda n: plain(n, HEAD + ASCII_ORD + "\n", to="gm+other@pbem.example"),
          "GAME says baltica42, the address another game", refused("which did you mean?"))
    c.add("plus_tag_only", lambda n: plain(n, "POWER sweden hunter2\nrecon Livland\n", to="gm+baltica42@pbem.example"),
          "no GAME line; the plus address names the game", stores(ASCII_ORD))
    c.add("no_game_known_sender", lambda n: plain(n, "POWER sweden hunter2\nrecon Livland\n"),
          "no GAME line from the seat's own address: its only game", stores(ASCII_ORD))
    c.add("no_game_stranger", lambda n: plain(n, "POWER sweden hunter2\nrecon Livland\n",
                                              sender="someone@example.com"),
          "no GAME line from a stranger", refused("which game?"))
    c.add("game_id_injection", lambda n: plain(n, "GAME baltica42'; DROP TABLE game;--\nPOWER sweden hunter2\n"),
          "SQL after the game name: the game is read, the rest of the line is not",
          unchanged(["Game baltica42, power Sweden"]))


AUTO = [
    ("auto_submitted_auto_replied", "Auto-Submitted: auto-replied", "auto_reply"),
    ("auto_submitted_uppercase", "Auto-Submitted: AUTO-REPLIED", "auto_reply"),
    ("auto_submitted_notified", "Auto-Submitted: auto-notified", "auto_reply"),
    ("auto_submitted_generated", "Auto-Submitted: auto-generated", "loop"),
    ("auto_submitted_with_comment", "Auto-Submitted: auto-replied; owner-email=anna@example.se", "auto_reply"),
    ("x_autoreply", "X-Autoreply: yes", "auto_reply"),
    ("x_autorespond", "X-Autorespond: vacation", "auto_reply"),
    ("x_auto_response", "X-Auto-Response: 1", "auto_reply"),
    ("x_vacation", "X-Vacation: on", "auto_reply"),
    ("precedence_auto_reply", "Precedence: auto_reply", "auto_reply"),
    ("precedence_bulk", "Precedence: bulk", "list"),
    ("precedence_junk", "Precedence: junk", "list"),
    ("precedence_list", "Precedence: list", "list"),
    ("list_id", "List-Id: <players.lists.example.org>", "list"),
    ("list_post", "List-Post: <mailto:players@lists.example.org>", "list"),
    ("x_mailing_list", "X-Mailing-List: players@lists.example.org", "list"),
    ("return_path_null", "Return-Path: <>", "bounce"),
    ("return_path_null_second", "Return-Path: <anna@example.se>\nReturn-Path: <>", "bounce"),
    ("return_path_null_spaced", "Return-Path: < >", "bounce"),
    ("our_game_header", "X-GM-Game: baltica42", "loop"),
    ("our_game_header_other_game", "X-GM-Game: someother", "loop"),
]
SUBJECTS = ["Out of Office: orders", "Out of the office", "Automatic reply: orders",
            "Auto: orders", "Autoreply: orders", "Auto-Response", "Vacation", "On vacation until Monday",
            "Away from the office", "Abwesenheit: orders", "Abwesenheitsnotiz", "Réponse automatique : orders",
            "Absence du bureau", "Risposta automatica: orders", "Respuesta automática: orders",
            "Fuera de la oficina"]


def automatic(c: Corpus) -> None:
    """Auto-replies, bounces, lists and loops: stored, never answered, even with valid orders."""
    body = HEAD + ASCII_ORD + "\n"
    for slug, header, cls in AUTO:
        c.add(f"auto_{slug}", lambda n, hd=header: plain(n, body, extra=hd),
              f"{header} on a mail with valid orders", ignored(), cls)
    for i, subject in enumerate(SUBJECTS):
        c.add(f"vacation_subject_{i:02d}", lambda n, s=subject: plain(n, body, subject=s),
              f"vacation subject {subject!r}", ignored(), "auto_reply")
    for sender in ("MAILER-DAEMON@mx.example.se", "mailer-daemon@googlemail.com",
                   "postmaster-noreply@example.org"):
        c.add(f"daemon_{sender.split('@')[0].lower()}_{sender.split('@')[1].split('.')[0]}",
              lambda n, s=sender: plain(n, "Delivery failed\n" + body, sender=s),
              f"from {sender}", ignored(), "bounce")
    dsn = crlf("Reporting-MTA: dns; mx.example.se\n\nFinal-Recipient: rfc822; x@example.se\n"
               "Action: failed\nStatus: 5.1.1\n")
    for report, cls in (("delivery-status", "bounce"), ("disposition-notification", "auto_reply")):
        c.add(f"multipart_report_{report.replace('-', '_')}", lambda n, r=report: multipart(
            n, f'report; report-type={r}', [part("text/plain", "Your message could not be delivered.\n"),
                                             f"Content-Type: message/{r}\r\n\r\n{dsn}".encode(),
                                             b"Content-Type: text/rfc822-headers\r\n\r\nSubject: orders\r\n"]),
            f"multipart/report ({report})", ignored(), cls)
    c.add("x_auto_response_suppress_is_ordinary", lambda n: plain(n, body, extra="X-Auto-Response-Suppress: All"),
          "Exchange sets X-Auto-Response-Suppress on ordinary mail: answered", stores(ASCII_ORD))
    c.add("subject_mentions_vacation_later", lambda n: plain(n, body, subject="orders before my vacation"),
          "'vacation' later in an ordinary subject", stores(ASCII_ORD))
    c.add("auto_submitted_no", lambda n: plain(n, body, extra="Auto-Submitted: no"),
          "Auto-Submitted: no is a person", stores(ASCII_ORD))
    c.add("our_reply_bounced_back_quoted", lambda n: plain(
        n, "==== gm reply baltica42 1700-autumn-actions-sweden ====\nGame baltica42, power sweden\n"
           "    5  OK  recon Livland\n", sender=SERVICE,
        extra="X-GM-Game: baltica42\nAuto-Submitted: auto-generated"),
          "our own reply coming back to us", ignored(), "loop")


def injection(c: Corpus) -> None:
    """CR/LF smuggled into what the reply reuses: never a header of ours."""
    body = HEAD + ASCII_ORD + "\n"
    bcc = base64.b64encode(b"orders\r\nBcc: victim@example.com").decode()
    for slug, kwargs in (
        ("subject_encoded_crlf", {"subject": f"=?utf-8?B?{bcc}?="}),
        ("subject_qp_crlf", {"subject": "=?utf-8?Q?orders=0D=0ABcc:_victim@example.com?="}),
        ("subject_bare_lf", {"subject": "=?utf-8?Q?orders=0ABcc:_victim@example.com?="}),
        ("subject_bare_cr", {"subject": "=?utf-8?Q?orders=0DBcc:_victim@example.com?="}),
        ("from_name_crlf", {"sender": f"=?utf-8?Q?Anna=0D=0ABcc:_victim@example.com?= <{ANNA}>"}),
        ("subject_unicode_line_separator", {"subject": "=?utf-8?B?" + base64.b64encode(
            "orders\u2028Bcc: victim@example.com\u0085x".encode()).decode() + "?="}),
    ):
        c.add(f"inject_{slug}", lambda n, kw=kwargs: plain(n, body, **kw),
              f"header injection attempt: {slug.replace('_', ' ')}", stores(ASCII_ORD))
    c.add("inject_reply_to_crlf", lambda n: plain(n, body, extra="Reply-To: =?utf-8?Q?x=0D=0ABcc:_victim@example.com?= <anna@example.se>"),
          "Reply-To name with CR LF", stores(ASCII_ORD))
    c.add("inject_reply_to_two_addresses", lambda n: plain(n, body, extra="Reply-To: anna@example.se, victim@example.com"),
          "Reply-To with two addresses: only the first is answered", stores(ASCII_ORD))
    c.add("inject_message_id_crlf", lambda n: plain(n, body, mid="<a@b>\r\n Bcc: victim@example.com"),
          "a folded Message-ID carrying a Bcc", stores(ASCII_ORD))
    c.add("inject_references_crlf", lambda n: plain(n, body, extra="References: <x@y>\r\n\t=?utf-8?Q?=0D=0ABcc:_victim@example.com?="),
          "References with an encoded CR LF", stores(ASCII_ORD))
    c.add("inject_in_reply_to_garbage", lambda n: plain(n, body, extra="In-Reply-To: <x@y>\r\n\tBcc: victim@example.com"),
          "In-Reply-To folded over a Bcc", stores(ASCII_ORD))
    c.add("inject_press_crlf", lambda n: plain(n, HEAD + "PRESS TO coalition\nSubject: x\r\nBcc: victim@example.com\nhi\nENDPRESS\n"),
          "press whose text looks like headers: sent as text, no header of ours",
          unchanged(also_queued=[f"press:{BORIS}"]))
    c.add("inject_template_syntax_subject", lambda n: plain(n, body, subject="{{ 7*7 }} {% raw %}"),
          "template syntax in the Subject", stores(ASCII_ORD, reply_excludes=["49"]))
    c.add("inject_template_syntax_orders", lambda n: plain(n, HEAD + "recon {{ 7*7 }}\n{% for x in y %}\n"),
          "template syntax in the orders", unchanged(["{{ 7*7 }}"]))
    c.add("inject_address_with_crlf_in_from", lambda n: plain(n, body, sender="\"anna\r\n\" <anna@example.se>"),
          "a quoted From name broken over lines: no usable address, nobody to answer", ignored_owner_warned())


def long_lines(c: Corpus) -> None:
    c.add("order_line_5000_chars", lambda n: plain(n, HEAD + "recon " + "Livland " * 625 + "\n"),
          "one order of 5000 characters: refused unread", unchanged(["the line is too long"]))
    c.add("garbage_line_100k_before", lambda n: plain(n, "z" * 100_000 + "\n" + HEAD + ASCII_ORD + "\n"),
          "a 100 kB line before the orders", stores(ASCII_ORD))
    c.add("garbage_line_100k_after", lambda n: plain(n, HEAD + ASCII_ORD + "\n" + "z " * 50_000 + "\n"),
          "a 100 kB line among the orders: refused unread, the order stands",
          stores(ASCII_ORD, contains=["OK  recon Livland", "the line is too long"]))
    c.add("subject_20k", lambda n: plain(n, HEAD + ASCII_ORD + "\n", subject="o" * 20_000),
          "a 20 kB subject", stores(ASCII_ORD))
    c.add("base64_one_line", lambda n: (headers(n, extra="MIME-Version: 1.0\nContent-Type: text/plain\n"
                                                 "Content-Transfer-Encoding: base64") + "\r\n\r\n").encode()
          + base64.b64encode(crlf(HEAD + ASCII_ORD + "\n" + "pad\n" * 5000).encode()),
          "base64 body on a single 25 kB line (5000 lines of junk)",
          stores(ASCII_ORD, contains=["OK  recon Livland", "too many lines"]))
    c.add("two_thousand_orders", lambda n: plain(n, HEAD + "recon Livland\n" * 2000),
          "the same order two thousand times: the first two hundred are read",
          stores("\n".join(["recon Livland"] * 200),
                 contains=["OK  recon Livland", "too many lines: only the first 200 were read"]))
    c.add("ten_thousand_blank_lines", lambda n: plain(n, HEAD + "\n" * 10_000 + ASCII_ORD + "\n"),
          "ten thousand blank lines before the order", stores(ASCII_ORD))
    c.add("qp_long_soft_wrapped", lambda n: plain(n, HEAD + "recon " + "Liv" + "\u00a0" * 0 + "land"
                                                  + " " * 3000 + "\n", cte="quoted-printable"),
          "quoted-printable with a 3000-space tail", stores("recon Livland", contains=["OK  recon Livland"]))
    c.add("many_sections", lambda n: plain(n, (HEAD + ASCII_ORD + "\n") * 50),
          "fifty identical sections: fifty versions, the last in force", stores(ASCII_ORD, versions=50))
    c.add("deep_quote_markers", lambda n: plain(n, HEAD + ASCII_ORD + "\n" + ">" * 5000 + " old\n"),
          "a quote 5000 levels deep", stores(ASCII_ORD))


def empty(c: Corpus) -> None:
    for slug, body in (("empty_body", ""), ("only_newlines", "\n\n\n"), ("only_spaces", "   \t  \n  "),
                       ("only_signature", "-- \nAnna\n"), ("only_quote", "> recon Livland\n> bye\n"),
                       ("only_end", "END\nGAME baltica42\n")):
        c.add(f"empty_{slug}", lambda n, b=body: plain(n, b), f"nothing to read: {slug.replace('_', ' ')}",
              unchanged(["No orders were found"]))
    c.add("empty_no_subject", lambda n: (crlf("From: anna@example.se\nTo: gm@pbem.example\n"
                                               f"Message-ID: <gen-{n}@corpus.example>") + "\r\n\r\n").encode(),
          "no subject, no body", unchanged(["No orders were found"]))
    c.add("empty_game_only", lambda n: plain(n, "GAME baltica42\n"), "only a GAME line",
          refused("no sign-on"))
    c.add("empty_signon_only", lambda n: plain(n, HEAD), "a sign-on and nothing else", unchanged())
    c.add("empty_no_from", lambda n: (crlf(f"To: gm@pbem.example\nSubject: orders\nMessage-ID: <gen-{n}@corpus.example>")
                                      + "\r\n\r\n" + crlf(HEAD + ASCII_ORD + "\n")).encode(),
          "no From header: nobody to answer, nothing done", ignored_owner_warned())
    c.add("empty_zero_bytes", b"", "zero bytes", ignored())


def quoting(c: Corpus) -> None:
    """Replies quoting earlier orders: only the new text counts."""
    old = "recon Ingermanland"
    for slug, body in (
        ("bottom_quote", f"{HEAD}{ASCII_ORD}\n\nOn Mon, 5 Jan 2026, gm wrote:\n> {HEAD.replace(chr(10), chr(10) + '> ')}{old}\n"),
        ("quote_markers_only", f"{HEAD}{ASCII_ORD}\n> {old}\n>> {old}\n"),
        ("outlook_original", f"{HEAD}{ASCII_ORD}\n\n-----Original Message-----\nFrom: gm\nSent: Monday\n"
                             f"Subject: orders\n\n{HEAD}{old}\n"),
        ("outlook_from_block", f"{HEAD}{ASCII_ORD}\n\n________________________________\nFrom: gm@pbem.example\n"
                               f"Sent: Monday, 5 January 2026 10:00\nTo: Anna\nSubject: orders\n\n{old}\n"),
        ("french_attribution", f"{HEAD}{ASCII_ORD}\n\nLe lun. 5 janv. 2026 à 10:00, gm a écrit :\n> {old}\n"),
        ("german_attribution", f"{HEAD}{ASCII_ORD}\n\nAm Mo., 5. Jan. 2026 um 10:00 Uhr schrieb gm:\n> {old}\n"),
        ("our_reply_quoted", f"{HEAD}{ASCII_ORD}\n\n> ==== gm reply baltica42 1700-autumn-actions-sweden ====\n"
                             f">     5  OK  {old}\n"),
        ("our_report_unquoted", f"{HEAD}{ASCII_ORD}\n\n==== gm report baltica42 1700-autumn-action-roll ====\n{old}\n"),
        ("interleaved", f"GAME baltica42\n> POWER sweden OLDPASSWORD\nPOWER sweden hunter2\n> {old}\n{ASCII_ORD}\n"),
        ("quoted_wrong_password", f"{HEAD}{ASCII_ORD}\n\nOn Mon, gm wrote:\n> POWER sweden oldpassword\n> {old}\n"),
    ):
        c.add(f"quote_{slug}", lambda n, b=body: plain(n, b, subject="Re: orders",
                                                       extra="In-Reply-To: <gm.0123@pbem.example>"),
              f"reply quoting earlier orders: {slug.replace('_', ' ')}",
              stores(ASCII_ORD, reply_excludes=[old]))
    c.add("quote_top_posted_new_orders_only_in_quote", lambda n: plain(
        n, f"Same as before please.\n\nOn Mon, gm wrote:\n> {HEAD.replace(chr(10), chr(10) + '> ')}{old}\n"),
          "orders only in the quoted part: nothing is read", unchanged(["No orders were found"]))


def misc(c: Corpus) -> None:
    body = HEAD + ASCII_ORD + "\n"
    c.add("french_keywords", lambda n: plain(n, "PARTIE baltica42\nPUISSANCE sweden hunter2\nreconnaitre Livland\n"),
          "the envelope in French (orders are stored in their canonical English form)",
          stores(ASCII_ORD))
    c.add("help_only", lambda n: plain(n, "HELP\n"), "HELP without a game", unchanged(["baltica42"]))
    c.add("help_game", lambda n: plain(n, "GAME baltica42\nHELP\n"), "HELP for the game", unchanged(["recon"]))
    c.add("status", lambda n: plain(n, HEAD + "STATUS\n"),
          "STATUS: the position comes as a report, in the one reply (issue 17)",
          unchanged(["your current report follows this reply", "==== gm report baltica42 "]))
    c.add("check_only", lambda n: plain(n, HEAD + "CHECK\n" + ASCII_ORD + "\n"), "CHECK stores nothing",
          unchanged(["CHECK: nothing was stored"]))
    c.add("add_orders", lambda n: plain(n, HEAD + "ADD\n" + ASCII_ORD + "\n"), "ADD to no earlier orders",
          stores(ASCII_ORD))
    c.add("press_to_coalition", lambda n: plain(n, HEAD + "PRESS TO coalition\nHello {{ 7*7 }} <b>x</b>\nENDPRESS\n"),
          "press with template and HTML syntax", unchanged(also_queued=[f"press:{BORIS}"]))
    c.add("unclosed_press", lambda n: plain(n, HEAD + "PRESS TO coalition\nhello\n"),
          "PRESS without ENDPRESS", unchanged(["PRESS without ENDPRESS"]))
    c.add("end_stops_reading", lambda n: plain(n, HEAD + ASCII_ORD + "\nEND\nrecon Ingermanland\n"),
          "END stops the reading", stores(ASCII_ORD, reply_excludes=["Ingermanland"]))
    c.add("comment_after_order", lambda n: plain(n, HEAD + "recon Livland # scouting\n"),
          "a # comment after an order", stores("recon Livland", contains=["OK  recon Livland"]))
    c.add("misspelt_territory", lambda n: plain(n, HEAD + "recon Livlnad\n"),
          "a misspelt territory", unchanged(["did you mean Livland"]))
    c.add("tabs_and_bullets", lambda n: plain(n, HEAD + "\t* recon Livland\n"),
          "an order as a bulleted list item", stores("recon Livland", contains=["OK  recon Livland"]))
    c.add("utf8_bom_in_body", lambda n: plain(n, "\ufeff" + body), "a BOM before GAME", stores(ASCII_ORD))
    c.add("zero_width_spaces", lambda n: plain(n, "GAME\u200b baltica42\nPOWER sweden hunter2\nrecon\u200bLivland\n"),
          "zero-width spaces inside words", unchanged())
    c.add("rtl_override", lambda n: plain(n, HEAD + "recon \u202eLivland\n"),
          "a right-to-left override in an order", unchanged())
    c.add("emoji", lambda n: plain(n, HEAD + ASCII_ORD + " \U0001f600\n"), "an emoji after the order",
          unchanged())
    c.add("sender_in_capitals", lambda n: plain(n, body, sender="ANNA@EXAMPLE.SE"),
          "the sender's address in capitals", stores(ASCII_ORD))
    c.add("readiness", lambda n: plain(n, body + "READY\n"),
          "orders then READY (one version, marked ready: READY is weighed after the orders)",
          stores(ASCII_ORD, versions=1))


def cases() -> list[Case]:
    c = Corpus()
    for group in (encodings, charsets, malformed, big, html, passwords, other_power, phases,
                  automatic, injection, long_lines, empty, quoting, misc):
        group(c)
    return c.cases


def write(out: Path = OUT) -> list[Path]:
    out.mkdir(exist_ok=True)
    written = []
    for case in cases():
        (out / f"{case.name}.eml").write_bytes(case.raw)
        (out / f"{case.name}.expect.json").write_text(
            json.dumps(case.expect(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        written += [out / f"{case.name}.eml", out / f"{case.name}.expect.json"]
    return written


def differences(out: Path = OUT) -> list[str]:
    """Files that are not what the generator makes (missing, stale, or extra)."""
    want: dict[str, bytes] = {}
    for case in cases():
        want[f"{case.name}.eml"] = case.raw
        want[f"{case.name}.expect.json"] = (json.dumps(case.expect(), indent=2, ensure_ascii=False)
                                            + "\n").encode()
    have = {p.name for p in out.glob("*")} if out.exists() else set()
    bad = [name for name, data in want.items() if name not in have or (out / name).read_bytes() != data]
    return sorted(bad + [name for name in have - set(want)])


def main(argv: list[str]) -> int:
    if "--check" in argv:
        bad = differences()
        for name in bad:
            print(f"differs: {name}")
        return 1 if bad else 0
    for p in OUT.glob("*"):
        p.unlink()
    print(f"wrote {len(write()) // 2} mails to {OUT}")
    return 0


def iter_all() -> Iterator[Case]:
    yield from cases()
    yield from big_cases()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
