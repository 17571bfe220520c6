"""a seat's address marked as bouncing: told to the moderator once, not once a mail

A mail of gm's that a mail server took and later returned for good (a 5.x.x bounce) told
the moderator once per mail and recipient: a player whose mailbox was gone cost the
moderator one notice a phase until someone acted. The seat now keeps the mark (the
address that bounced, when, the outbox mail that came back first, the server's words,
and how many mails to it have bounced since), so later bounces to that address are
recorded but not told again (gm.service.bouncing). Existing seats start unmarked.

Revision ID: 0007_seat_bounce
Revises: 0006_held_report
Create Date: 2026-11-30 11:30:00
"""
import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op

revision = '0007_seat_bounce'
down_revision = '0006_held_report'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('seat') as batch:
        batch.add_column(sa.Column('bounce_address', sqlmodel.sql.sqltypes.AutoString(length=320),
                                   nullable=False, server_default=''))
        batch.add_column(sa.Column('bounce_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True))
        batch.add_column(sa.Column('bounce_mail', sa.Integer(), nullable=True))
        batch.add_column(sa.Column('bounce_said', sqlmodel.sql.sqltypes.AutoString(),
                                   nullable=False, server_default=''))
        batch.add_column(sa.Column('bounce_count', sa.Integer(), nullable=False,
                                   server_default='0'))


def downgrade() -> None:
    with op.batch_alter_table('seat') as batch:
        batch.drop_column('bounce_count')
        batch.drop_column('bounce_said')
        batch.drop_column('bounce_mail')
        batch.drop_column('bounce_at')
        batch.drop_column('bounce_address')
