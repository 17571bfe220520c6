"""Reading bounces (gm/mail/dsn.py): delivery status notifications as Postfix, Exim and
Gmail write them, with the returned mail whole or its headers only, several recipients
in one, and plain-text bounces as qmail and old Exim write them."""

from __future__ import annotations

from email.message import EmailMessage

import pytest

from gm.mail.dsn import Bounce, read_bounce

GM_ID = "<gm.4f1c0ffee0ddba11@pbem.example>"


def returned_mail(to: str = "south@example.org", message_id: str = GM_ID) -> str:
    """A mail as gm sends it (the part of it a bounce returns)."""
    msg = EmailMessage()
    msg["From"], msg["To"] = "gm@pbem.example", to
    msg["Subject"], msg["Message-ID"] = "[race1] turn-2: report for south", message_id
    msg["X-GM-Game"], msg["Auto-Submitted"] = "race1", "auto-generated"
    msg.set_content("==== gm report race1 turn-2 ====\nYou are at 7.\n")
    return msg.as_string()


def returned_headers(to: str = "south@example.org", message_id: str = GM_ID) -> str:
    return returned_mail(to, message_id).split("\n\n", 1)[0] + "\n"


def postfix_dsn(returned: str | None = None, *, action: str = "failed", status: str = "5.1.1",
                recipient: str = "south@example.org", original: str = "south@example.org",
                dsn_id: str = "<20260103091500.4A1B2C3D4E@mx.example.org>") -> bytes:
    """Postfix's bounce: notification, delivery report, the undelivered message whole."""
    return f"""Return-Path: <>
Received: by mx.example.org (Postfix) id 4A1B2C3D4E; Sat,  3 Jan 2026 10:15:00 +0100 (CET)
Date: Sat,  3 Jan 2026 10:15:00 +0100 (CET)
From: MAILER-DAEMON@mx.example.org (Mail Delivery System)
Subject: Undelivered Mail Returned to Sender
To: gm@pbem.example
Auto-Submitted: auto-replied
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status;
\tboundary="4A1B2C3D4E.1767431700/mx.example.org"
Content-Transfer-Encoding: 8bit
Message-Id: {dsn_id}

This is a MIME-encapsulated message.

--4A1B2C3D4E.1767431700/mx.example.org
Content-Description: Notification
Content-Type: text/plain; charset=utf-8
Content-Transfer-Encoding: 8bit

This is the mail system at host mx.example.org.

I'm sorry to have to inform you that your message could not
be delivered to one or more recipients. It's attached below.

                   The mail system

<{recipient}>: host mail.example.org[192.0.2.7] said: 550 5.1.1
    <{recipient}>: Recipient address rejected: User unknown in local
    recipient table (in reply to RCPT TO command)

--4A1B2C3D4E.1767431700/mx.example.org
Content-Description: Delivery report
Content-Type: message/delivery-status

Reporting-MTA: dns; mx.example.org
X-Postfix-Queue-ID: 4A1B2C3D4E
X-Postfix-Sender: rfc822; gm@pbem.example
Arrival-Date: Sat,  3 Jan 2026 10:14:58 +0100 (CET)

Final-Recipient: rfc822; {recipient}
Original-Recipient: rfc822;{original}
Action: {action}
Status: {status}
Remote-MTA: dns; mail.example.org
Diagnostic-Code: smtp; 550 5.1.1 <{recipient}>: Recipient address
    rejected: User unknown in local recipient table

--4A1B2C3D4E.1767431700/mx.example.org
Content-Description: Undelivered Message
Content-Type: message/rfc822
Content-Transfer-Encoding: 8bit

{returned if returned is not None else returned_mail()}
--4A1B2C3D4E.1767431700/mx.example.org--
""".encode()


def exim_dsn() -> bytes:
    """Exim 4.9x: Action before Final-Recipient, a generic status, headers only returned."""
    return f"""Return-path: <>
From: Mail Delivery System <Mailer-Daemon@mx.example.net>
To: gm@pbem.example
Content-Type: multipart/report; report-type=delivery-status; boundary=1767431700-eximdsn-1804289383
MIME-Version: 1.0
Subject: Mail delivery failed: returning message to sender
Message-Id: <E1vXyZq-000123-AB@mx.example.net>
Date: Sat, 03 Jan 2026 10:15:00 +0100
Auto-Submitted: auto-replied
X-Failed-Recipients: south@example.org

--1767431700-eximdsn-1804289383
Content-type: text/plain; charset=us-ascii

This message was created automatically by mail delivery software.

A message that you sent could not be delivered to one or more of its
recipients. This is a permanent error. The following address(es) failed:

  south@example.org
    host mx.example.org [192.0.2.9]
    SMTP error from remote mail server after RCPT TO:<south@example.org>:
    552 5.2.2 <south@example.org>: mailbox full

--1767431700-eximdsn-1804289383
Content-type: message/delivery-status

Reporting-MTA: dns; mx.example.net

Action: failed
Final-Recipient: rfc822;south@example.org
Status: 5.0.0
Remote-MTA: dns; mx.example.org
Diagnostic-Code: smtp; 552 5.2.2 <south@example.org>: mailbox full

--1767431700-eximdsn-1804289383
Content-type: text/rfc822-headers

{returned_headers()}
--1767431700-eximdsn-1804289383--
""".encode()


def gmail_dsn(*, with_headers: bool = True) -> bytes:
    """Gmail: the notification as text, HTML and an icon; a folded multi-line diagnostic."""
    headers = f"""--000000000000abcdef
Content-Type: text/rfc822-headers

{returned_headers("south@example.com")}
""" if with_headers else ""
    return f"""From: Mail Delivery Subsystem <mailer-daemon@googlemail.com>
To: gm@pbem.example
Auto-Submitted: auto-replied
Subject: Delivery Status Notification (Failure)
Message-ID: <65a1b2c3.050a0220.abcd.0001.GMR@mx.google.com>
Date: Sat, 03 Jan 2026 01:15:01 -0800 (PST)
MIME-Version: 1.0
Content-Type: multipart/report; boundary="000000000000abcdef"; report-type=delivery-status

--000000000000abcdef
Content-Type: multipart/related; boundary="000000000000abc0"

--000000000000abc0
Content-Type: multipart/alternative; boundary="000000000000abc1"

--000000000000abc1
Content-Type: text/plain; charset="UTF-8"


** Address not found **

Your message wasn't delivered to south@example.com because the address couldn't be found, or is unable to receive mail.

--000000000000abc1
Content-Type: text/html; charset="UTF-8"

<html><body><p><b>Address not found</b></p></body></html>
--000000000000abc1--
--000000000000abc0
Content-Type: image/png; name="icon.png"
Content-Disposition: attachment; filename="icon.png"
Content-Transfer-Encoding: base64
Content-ID: <icon.png>

iVBORw0KGgo=
--000000000000abc0--
--000000000000abcdef
Content-Type: message/delivery-status

Reporting-MTA: dns; googlemail.com
Received-From-MTA: dns; gm@pbem.example
Arrival-Date: Sat, 03 Jan 2026 01:15:00 -0800 (PST)
X-Original-Message-ID: {GM_ID}

Final-Recipient: rfc822; south@example.com
Action: failed
Status: 5.1.1
Remote-MTA: dns; mx.example.com. (192.0.2.10, the server for the domain example.com.)
Diagnostic-Code: smtp; 550-5.1.1 The email account that you tried to reach does not exist. Please try
 550-5.1.1 double-checking the recipient's email address for typos or
 550-5.1.1 unnecessary spaces. For more information, go to
 550 5.1.1  https://support.google.com/mail/?p=NoSuchUser a1b2c3 - gsmtp
Last-Attempt-Date: Sat, 03 Jan 2026 01:15:01 -0800 (PST)

{headers}--000000000000abcdef--
""".encode()


def two_recipients_dsn() -> bytes:
    """Sendmail-like: one recipient failed, the other still being tried, headers returned."""
    return f"""From: Mail Delivery Subsystem <MAILER-DAEMON@relay.example.com>
To: gm@pbem.example
Subject: Returned mail: see transcript for details
Message-Id: <202601030915.30D9F0aB012345@relay.example.com>
Auto-Submitted: auto-generated (failure)
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status; boundary="30D9F0aB012345.1767431700/relay.example.com"

--30D9F0aB012345.1767431700/relay.example.com
Content-Type: text/plain

The original message was received at Sat, 3 Jan 2026 10:14:58 +0100
from gm.pbem.example [192.0.2.1]

   ----- The following addresses had permanent fatal errors -----
<north@example.com>
    (reason: 550 5.2.1 Mailbox disabled)

--30D9F0aB012345.1767431700/relay.example.com
Content-Type: message/delivery-status

Reporting-MTA: dns; relay.example.com
Received-From-MTA: DNS; gm.pbem.example
Arrival-Date: Sat, 3 Jan 2026 10:14:58 +0100

Final-Recipient: RFC822; north@example.com
Action: failed
Status: 5.2.1
Remote-MTA: DNS; mx.example.com
Diagnostic-Code: SMTP; 550 5.2.1 Mailbox disabled
Last-Attempt-Date: Sat, 3 Jan 2026 10:15:00 +0100

Final-Recipient: RFC822; south@example.com
Action: delayed
Status: 4.4.7
Will-Retry-Until: Thu, 8 Jan 2026 10:14:58 +0100

--30D9F0aB012345.1767431700/relay.example.com
Content-Type: text/rfc822-headers

{returned_headers("north@example.com, south@example.com")}
--30D9F0aB012345.1767431700/relay.example.com--
""".encode()


def qmail_bounce(message_id: str = GM_ID) -> bytes:
    quoted = returned_mail("south@example.org", message_id)
    return f"""Return-Path: <>
From: MAILER-DAEMON@mail.example.org
To: gm@pbem.example
Subject: failure notice
Date: 3 Jan 2026 09:15:00 -0000
Message-ID: <20260103091500.12345.qmail@mail.example.org>

Hi. This is the qmail-send program at mail.example.org.
I'm afraid I wasn't able to deliver your message to the following addresses.
This is a permanent error; I've given up. Sorry it didn't work out.

<south@example.org>:
Sorry, no mailbox here by that name. (#5.1.1)

--- Below this line is a copy of the message.

Return-Path: <gm@pbem.example>
Received: (qmail 12340 invoked from network); 3 Jan 2026 09:14:58 -0000
{quoted}""".encode()


def old_exim_bounce() -> bytes:
    return f"""Return-path: <>
From: Mail Delivery System <Mailer-Daemon@mx.example.net>
To: gm@pbem.example
Subject: Mail delivery failed: returning message to sender
Message-Id: <E1abcde-0001xy-Zz@mx.example.net>

This message was created automatically by mail delivery software.

A message that you sent could not be delivered to one or more of its
recipients. This is a permanent error. The following address(es) failed:

  south@example.org
    SMTP error from remote mail server after RCPT TO:<south@example.org>:
    host mx.example.org [192.0.2.9]: 550 5.1.1 <south@example.org>: User unknown

------ This is a copy of the message, including all the headers. ------

{returned_mail()}""".encode()


def exim_delay_warning() -> bytes:
    return f"""Return-path: <>
From: Mail Delivery System <Mailer-Daemon@mx.example.net>
To: gm@pbem.example
Subject: Warning: message 1abcde-0001xy-Zz delayed 24 hours
Message-Id: <E1abcdf-0001xy-Zz@mx.example.net>

This message was created automatically by mail delivery software.
A message that you sent has not yet been delivered to one or more of its
recipients after more than 24 hours on the queue on mx.example.net.

The message identifier is:     1abcde-0001xy-Zz
The subject of the message is: [race1] turn-2: report for south

The address to which the message has not yet been delivered is:

  south@example.org
    host mx.example.org [192.0.2.9]: 452 4.2.2 Mailbox full

No action is required on your part. Delivery attempts will continue for
some time, and this warning may be repeated at intervals if the message
remains undelivered. Eventually the mail delivery software will give up,
and when that happens, the message will be returned to you.

------ This is a copy of the message's headers. ------

{returned_headers()}""".encode()


def only(bounce: Bounce, sent_to: list[str]) -> tuple[str, str, str]:
    [failure] = bounce.failures(sent_to)
    return failure.address, failure.status.status, failure.status.diagnostic


def test_postfix_dsn_names_the_returned_mail_the_recipient_and_the_server_s_answer() -> None:
    bounce = read_bounce(postfix_dsn())
    assert bounce.structured and bounce.message_ids == (GM_ID,)
    assert bounce.reporting_mta == "mx.example.org"
    [r] = bounce.recipients
    assert (r.final_recipient, r.original_recipient, r.action, r.remote_mta) == (
        "south@example.org", "south@example.org", "failed", "mail.example.org")
    assert only(bounce, ["South@Example.org"]) == (
        "South@Example.org", "5.1.1", "550 5.1.1 <south@example.org>: Recipient address rejected: "
        "User unknown in local recipient table")


def test_exim_dsn_with_text_rfc822_headers_and_action_before_the_recipient() -> None:
    bounce = read_bounce(exim_dsn())
    assert bounce.message_ids == (GM_ID,)
    assert only(bounce, ["south@example.org"]) == (
        "south@example.org", "5.0.0", "552 5.2.2 <south@example.org>: mailbox full")


@pytest.mark.parametrize("with_headers", [True, False])
def test_gmail_dsn_reads_its_folded_diagnostic_and_names_the_mail_even_without_headers(
        with_headers: bool) -> None:
    bounce = read_bounce(gmail_dsn(with_headers=with_headers))
    assert bounce.message_ids == (GM_ID,)  # X-Original-Message-ID when no headers came back
    address, status, diagnostic = only(bounce, ["south@example.com"])
    assert (address, status) == ("south@example.com", "5.1.1")
    assert diagnostic.startswith("550-5.1.1 The email account that you tried to reach does not "
                                 "exist. Please try 550-5.1.1 double-checking")
    assert diagnostic.endswith("p=NoSuchUser a1b2c3 - gsmtp")


def test_several_recipients_one_failed_one_delayed_fails_only_the_first() -> None:
    bounce = read_bounce(two_recipients_dsn())
    assert [(r.final_recipient, r.action, r.status) for r in bounce.recipients] == [
        ("north@example.com", "failed", "5.2.1"), ("south@example.com", "delayed", "4.4.7")]
    assert only(bounce, ["north@example.com", "south@example.com"]) == (
        "north@example.com", "5.2.1", "550 5.2.1 Mailbox disabled")


@pytest.mark.parametrize("action", ["delayed", "delivered", "relayed", "expanded"])
def test_a_dsn_that_does_not_say_failed_fails_nobody(action: str) -> None:
    bounce = read_bounce(postfix_dsn(action=action, status="4.4.1" if action == "delayed" else "2.0.0"))
    assert bounce.message_ids == (GM_ID,)
    assert bounce.failures(["south@example.org"]) == ()


def test_a_dsn_fails_only_recipients_the_mail_was_sent_to() -> None:
    bounce = read_bounce(postfix_dsn())
    assert bounce.failures(["north@example.org"]) == ()
    assert bounce.failures([]) == ()


def test_the_original_recipient_matches_when_the_final_one_is_a_forward() -> None:
    bounce = read_bounce(postfix_dsn(recipient="s.old@isp.example", original="south@example.org"))
    [failure] = bounce.failures(["south@example.org"])
    assert failure.address == "south@example.org"
    assert failure.status.final_recipient == "s.old@isp.example"


def test_the_returned_message_s_own_references_are_not_taken_for_its_id() -> None:
    """Only the returned mail's Message-ID names it, not the ids it answers."""
    mail = returned_mail().replace(f"Message-ID: {GM_ID}",
                                   "Message-ID: <other@pbem.example>\nIn-Reply-To: " + GM_ID)
    assert read_bounce(postfix_dsn(mail)).message_ids == ("<other@pbem.example>",)


def test_global_delivery_status_rfc6533_is_read_as_well() -> None:
    raw = postfix_dsn().replace(b"message/delivery-status", b"message/global-delivery-status")
    assert only(read_bounce(raw), ["south@example.org"])[:2] == ("south@example.org", "5.1.1")


def test_qmail_bounce_names_the_quoted_message_id_and_the_failed_address() -> None:
    bounce = read_bounce(qmail_bounce())
    assert not bounce.structured and not bounce.delayed
    assert bounce.message_ids == (GM_ID,)
    assert only(bounce, ["south@example.org"]) == (
        "south@example.org", "5.1.1", "Sorry, no mailbox here by that name. (#5.1.1)")


def test_old_exim_plain_bounce_reads_the_lines_about_the_address() -> None:
    bounce = read_bounce(old_exim_bounce())
    assert bounce.message_ids == (GM_ID,)
    address, status, diagnostic = only(bounce, ["south@example.org"])
    assert (address, status) == ("south@example.org", "5.1.1")
    assert diagnostic.endswith("550 5.1.1 <south@example.org>: User unknown")


def test_a_plain_bounce_naming_none_of_the_recipients_fails_them_all() -> None:
    bounce = read_bounce(qmail_bounce().replace(b"<south@example.org>:\n", b"<s@fwd.example>:\n"))
    assert [f.address for f in bounce.failures(["south@example.org"])] == ["south@example.org"]


def test_a_plain_delay_warning_fails_nobody() -> None:
    bounce = read_bounce(exim_delay_warning())
    assert bounce.delayed and bounce.message_ids == (GM_ID,)
    assert bounce.failures(["south@example.org"]) == ()


def test_a_plain_bounce_without_a_quoted_message_id_names_no_mail() -> None:
    raw = qmail_bounce().replace(f"Message-ID: {GM_ID}\n".encode(), b"")
    assert read_bounce(raw).message_ids == ()


@pytest.mark.parametrize("raw", [
    b"", b"\x00\xff garbage", b"Content-Type: multipart/report\n\nno boundary",
    b"Content-Type: multipart/report; boundary=x\n\n--x\nContent-Type: message/delivery-status\n"
    b"Content-Transfer-Encoding: base64\n\n!!!not base64\n--x--\n",
    b"Content-Type: message/delivery-status\n\nFinal-Recipient\n  folded\nAction: failed\n",
])
def test_broken_input_never_raises(raw: bytes) -> None:
    bounce = read_bounce(raw)
    assert bounce.failures(["south@example.org"]) is not None
