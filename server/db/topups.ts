/**
 * The top_ups table: online top-up orders, from the pay call to the payment platform's callback.
 * Crediting an order flips it from pending to success, credits the user and writes the top-up log
 * in one transaction, so an order is credited exactly once however often the callback comes.
 */
import type { Insertable, Kysely, Selectable } from 'kysely'
import type { DB, TopUpsTable } from './schema.ts'
import { addQuota, findUser } from './users.ts'
import { writeAccountLogs } from './account-logs.ts'

export type TopUpRow = Selectable<TopUpsTable>
type Db = Kysely<DB>

/** A new order, pending until the platform says it was paid. */
export async function insertTopUp(db: Db, order: Omit<Insertable<TopUpsTable>, 'status' | 'complete_time'>): Promise<void> {
  await db
    .insertInto('top_ups')
    .values({ ...order, status: 'pending' })
    .execute()
}

export function findTopUpByTradeNo(db: Db, tradeNo: string): Promise<TopUpRow | undefined> {
  return db.selectFrom('top_ups').selectAll().where('trade_no', '=', tradeNo).executeTakeFirst()
}

/** Credits a paid order once: false when it was credited already (or is not pending). */
export function creditTopUp(db: Db, order: TopUpRow, quota: number, at: number): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    const flip = await tx
      .updateTable('top_ups')
      .set({ status: 'success', complete_time: at })
      .where('id', '=', order.id)
      .where('status', '=', 'pending')
      .executeTakeFirst()
    if (Number(flip.numUpdatedRows) !== 1) return false
    await addQuota(tx, order.user_id, quota)
    const owner = await findUser(tx, order.user_id)
    const money = Math.round(order.money * 100) / 100
    const detail = {
      kind: 'topup.paid',
      amount: order.amount,
      quota,
      money,
      method: order.payment_method,
      trade_no: order.trade_no,
    } as const
    await writeAccountLogs(tx, [{ userId: order.user_id, username: owner?.username ?? '', at, quota, detail }])
    return true
  })
}
