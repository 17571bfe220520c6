"""orders and events found by game and phase together (issue 21)

A power's order versions and a phase's events were found through an index on
``phase_seq`` alone (SQLite, without statistics, chose it over the one on ``game_id``):
every game's rows of that phase were read for each look-up, so an order mail and a
close cost more with every game on the database (a 400-game storm: a phase's events
read in 97 us against 7 through the game; at 1,000 games, some 2.5 ms a close by the
end). One index each on (game_id, phase_seq, ...) replaces the single-column ones, which
nothing looks up by alone; with the one on ``orderset.current`` left, SQLite chose it
instead (every current version of every game).

Revision ID: 0005_game_phase_indexes
Revises: 0004_outbox_raw_uncompressed
Create Date: 2026-11-29 14:00:00
"""
from alembic import op

revision = '0005_game_phase_indexes'
down_revision = '0004_outbox_raw_uncompressed'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('orderset', schema=None) as batch_op:
        batch_op.create_index('ix_orderset_game_phase_power', ['game_id', 'phase_seq', 'power'],
                              unique=False)
        batch_op.drop_index('ix_orderset_game_id')
        batch_op.drop_index('ix_orderset_phase_seq')
        batch_op.drop_index('ix_orderset_current')
    with op.batch_alter_table('eventlog', schema=None) as batch_op:
        batch_op.create_index('ix_eventlog_game_phase', ['game_id', 'phase_seq', 'seq'], unique=False)
        batch_op.drop_index('ix_eventlog_game_id')
        batch_op.drop_index('ix_eventlog_phase_seq')


def downgrade() -> None:
    with op.batch_alter_table('eventlog', schema=None) as batch_op:
        batch_op.create_index('ix_eventlog_phase_seq', ['phase_seq'], unique=False)
        batch_op.create_index('ix_eventlog_game_id', ['game_id'], unique=False)
        batch_op.drop_index('ix_eventlog_game_phase')
    with op.batch_alter_table('orderset', schema=None) as batch_op:
        batch_op.create_index('ix_orderset_current', ['current'], unique=False)
        batch_op.create_index('ix_orderset_phase_seq', ['phase_seq'], unique=False)
        batch_op.create_index('ix_orderset_game_id', ['game_id'], unique=False)
        batch_op.drop_index('ix_orderset_game_phase_power')
