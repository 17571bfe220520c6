"""Handing mail gm has handled back to it, after a database was restored from a backup.

A mail gm handled is flagged in the mailbox (or moved to ``processed_folder``) and never
fetched again. A database restored from a backup does not know the mails handled since
the backup was made: their orders, and the JOINs, would be lost without a word. Taking
the flag off (moving them back) lets gm read them again; the mails the restored database
does know are recognised by their Message-ID and not answered twice
(gm.pipeline.claim). deploy/README.md, "What to back up".
"""

from __future__ import annotations

from datetime import date

from imapclient import IMAPClient

from gm.mail.imap_source import ImapSource


def reread_since(source: ImapSource, since: date) -> int:
    """Take gm's handled mark off every mail that reached the mailbox on or after ``since``
    (the server's INTERNALDATE, by day), so gm reads them again; how many."""
    return source.call(lambda client: _reread(source, client, since))


def _reread(source: ImapSource, client: IMAPClient, since: date) -> int:
    s = source.settings
    if s.processed_folder:
        client.select_folder(s.processed_folder)
        try:
            uids = client.search(["SINCE", since])
            if uids:
                client.copy(uids, s.folder)
                client.delete_messages(uids)
                client.expunge()
        finally:
            client.select_folder(s.folder)
        return len(uids)
    if s.handled_flag.lower() == "\\seen":
        criteria: list[object] = ["SINCE", since, "SEEN"]
    else:
        criteria = ["SINCE", since, "KEYWORD", s.handled_flag]
    uids = client.search(criteria)
    if uids:
        client.remove_flags(uids, [s.handled_flag], silent=True)
    return len(uids)
