"""a queued mail that is only true while its phase is open is marked so

A reminder was withdrawn, unsent, once its phase had closed (the SMTP server down
meanwhile), but the moderator's "N missing for round-1 (1 minute left)" and an
absence's "Decide: EXTEND the deadline" were ordinary notices, and went out after the
next phase's report. The outbox now marks every such mail when it is queued
(``phase_bound``), and the drain withdraws the marked mails whose game closed a phase
since (gm.pipeline.dispatch). Existing mails are unmarked, reminders excepted.

Revision ID: 0008_outbox_phase_bound
Revises: 0007_seat_bounce
Create Date: 2026-11-30 21:00:00
"""
import sqlalchemy as sa
from alembic import op

revision = '0008_outbox_phase_bound'
down_revision = '0007_seat_bounce'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('outboundmail') as batch:
        batch.add_column(sa.Column('phase_bound', sa.Boolean(), nullable=False,
                                   server_default=sa.false()))
    op.execute("UPDATE outboundmail SET phase_bound = TRUE WHERE kind = 'reminder' "
               "AND status = 'queued'")


def downgrade() -> None:
    with op.batch_alter_table('outboundmail') as batch:
        batch.drop_column('phase_bound')
