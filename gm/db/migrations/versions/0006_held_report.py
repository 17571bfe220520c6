"""heldreport: what a report held for the moderator (preview) was written from

RELEASE starts the phase's clock, so the deadline counts from the release; the held
reports, written at the close, named the one counted from the close (earlier than the
real one). Each held report's context is kept here until the release, which writes the
report again from it with the real deadline: the same rulings, events, dice and position.

Revision ID: 0006_held_report
Revises: 0005_game_phase_indexes
Create Date: 2026-11-30 12:00:00
"""
import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op

revision = '0006_held_report'
down_revision = '0005_game_phase_indexes'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('heldreport',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('message_id', sqlmodel.sql.sqltypes.AutoString(length=998), nullable=False),
    sa.Column('key', sqlmodel.sql.sqltypes.AutoString(length=998), nullable=False),
    sa.Column('phase_seq', sa.Integer(), nullable=False),
    sa.Column('branch', sa.Integer(), nullable=False),
    sa.Column('power', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True),
    sa.Column('context', sa.JSON(), nullable=True),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('message_id')
    )
    with op.batch_alter_table('heldreport', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_heldreport_game_id'), ['game_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('heldreport', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_heldreport_game_id'))
    op.drop_table('heldreport')
