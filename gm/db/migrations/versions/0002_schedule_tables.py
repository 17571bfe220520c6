"""scheduler tables: heartbeat (service last-alive time) and absence (ABSENT)

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-21 06:50:00
"""
import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op

revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('heartbeat',
    sa.Column('instance', sqlmodel.sql.sqltypes.AutoString(length=128), nullable=False),
    sa.Column('started_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('alive_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.PrimaryKeyConstraint('instance')
    )
    op.create_index(op.f('ix_heartbeat_alive_at'), 'heartbeat', ['alive_at'], unique=False)
    op.create_table('absence',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('power', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('start', sa.Date(), nullable=False),
    sa.Column('end', sa.Date(), nullable=False),
    sa.Column('declared_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('inbound_id', sa.Integer(), nullable=True),
    sa.Column('cancelled', sa.Boolean(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], ),
    sa.ForeignKeyConstraint(['inbound_id'], ['inboundmail.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index(op.f('ix_absence_game_id'), 'absence', ['game_id'], unique=False)


def downgrade() -> None:
    op.drop_index(op.f('ix_absence_game_id'), table_name='absence')
    op.drop_table('absence')
    op.drop_index(op.f('ix_heartbeat_alive_at'), table_name='heartbeat')
    op.drop_table('heartbeat')
