"""abuse limits and secrets: servicesecret (the Message-ID key), replycharge (reply budget)

Revision ID: 0003_rt_abuse
Revises: 0003_rt_core
Create Date: 2026-11-25 22:00:00
"""
import secrets
from datetime import UTC, datetime

import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op

revision = '0003_rt_abuse'
down_revision = '0003_rt_core'
branch_labels = None
depends_on = None


def upgrade() -> None:
    table = op.create_table('servicesecret',
    sa.Column('name', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('value', sa.LargeBinary(), nullable=False),
    sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.PrimaryKeyConstraint('name')
    )
    # Made once, here, so every instance on this database signs Message-IDs alike.
    op.bulk_insert(table, [{"name": "message-id", "value": secrets.token_bytes(32),
                            "created_at": datetime.now(UTC)}])
    op.create_table('replycharge',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('address', sqlmodel.sql.sqltypes.AutoString(length=320), nullable=False),
    sa.Column('at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('inbound_id', sa.Integer(), nullable=True),
    sa.Column('notice', sa.Boolean(), nullable=False),
    sa.ForeignKeyConstraint(['inbound_id'], ['inboundmail.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index(op.f('ix_replycharge_address'), 'replycharge', ['address'], unique=False)
    op.create_index(op.f('ix_replycharge_at'), 'replycharge', ['at'], unique=False)


def downgrade() -> None:
    op.drop_index(op.f('ix_replycharge_at'), table_name='replycharge')
    op.drop_index(op.f('ix_replycharge_address'), table_name='replycharge')
    op.drop_table('replycharge')
    op.drop_table('servicesecret')
