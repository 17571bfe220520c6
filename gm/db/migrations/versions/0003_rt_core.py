"""game holds: a game whose phase raised while closing waits for its moderator

Revision ID: 0003_rt_core
Revises: 0003_rt_multi
Create Date: 2026-11-25 22:00:00
"""
import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op

revision = '0003_rt_core'
down_revision = '0003_rt_multi'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('game') as batch:
        batch.add_column(sa.Column('hold_reason', sqlmodel.sql.sqltypes.AutoString(),
                                   nullable=False, server_default=''))
        batch.add_column(sa.Column('held_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('game') as batch:
        batch.drop_column('held_at')
        batch.drop_column('hold_reason')
