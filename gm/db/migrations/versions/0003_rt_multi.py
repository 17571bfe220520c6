"""several instances on one database: a unique key per mailbox message, a claim (with a
lease) on each outgoing mail, at most one current order set per power and phase

Revision ID: 0003_rt_multi
Revises: 0002
Create Date: 2026-11-25 22:00:00
"""
import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op

revision = '0003_rt_multi'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('inboundmail') as batch:
        batch.add_column(sa.Column('mailbox_key', sqlmodel.sql.sqltypes.AutoString(length=800),
                                   nullable=True))
        batch.create_unique_constraint('uq_inboundmail_mailbox_key', ['mailbox_key'])
    with op.batch_alter_table('outboundmail') as batch:
        batch.add_column(sa.Column('claimed_by', sqlmodel.sql.sqltypes.AutoString(length=200),
                                   nullable=False, server_default=''))
        batch.add_column(sa.Column('claimed_until', sqlmodel.sql.sqltypes.UTCDateTime(),
                                   nullable=True))
    # Two instances could leave two current versions of one power's orders (issue 22): keep
    # the latest current, as the last mail received wins.
    op.execute(
        "UPDATE orderset SET current = false WHERE current = true AND EXISTS ("
        " SELECT 1 FROM orderset AS later WHERE later.game_id = orderset.game_id"
        " AND later.phase_seq = orderset.phase_seq AND later.power = orderset.power"
        " AND later.current = true AND later.id > orderset.id)"
    )
    op.create_index('uq_orderset_current', 'orderset', ['game_id', 'phase_seq', 'power'],
                    unique=True, sqlite_where=sa.text('current'),
                    postgresql_where=sa.text('current'))


def downgrade() -> None:
    op.drop_index('uq_orderset_current', table_name='orderset')
    with op.batch_alter_table('outboundmail') as batch:
        batch.drop_column('claimed_until')
        batch.drop_column('claimed_by')
    with op.batch_alter_table('inboundmail') as batch:
        batch.drop_constraint('uq_inboundmail_mailbox_key', type_='unique')
        batch.drop_column('mailbox_key')
