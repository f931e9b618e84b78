/**
 * The sentences of the log details account events store (domain/log-detail.ts): the English one
 * fills the row's `content` for the family's clients; both languages document how a reader words
 * each kind. Every kind has its sentence (the type below fails otherwise).
 */
import type { LogDetailKind } from '../../../domain/log-detail.ts'

type DetailWords = { readonly [K in LogDetailKind as `logDetail.${K}`]: { readonly en: string; readonly zh: string } }

export const accountLogs = {
  'logDetail.user.newBonus': { en: 'new user bonus: {quota} quota', zh: '新用户注册赠送 {quota} 额度' },
  'logDetail.user.inviteeBonus': { en: 'invite code bonus: {quota} quota', zh: '使用邀请码注册赠送 {quota} 额度' },
  'logDetail.user.inviterReward': { en: 'invited {invitee}: {quota} invite quota', zh: '邀请用户 {invitee} 获得 {quota} 邀请额度' },
  'logDetail.admin.quotaChanged': {
    en: 'administrator {admin} changed the quota of {user} from {from} to {to}',
    zh: '管理员 {admin} 将用户 {user} 的额度从 {from} 修改为 {to}',
  },
  'logDetail.topup.redeemed': {
    en: 'topped up {quota} quota with redemption code id {code_id}',
    zh: '通过兑换码（ID {code_id}）充值 {quota} 额度',
  },
  'logDetail.topup.paid': {
    en: 'online top-up succeeded: {amount} USD ({quota} quota), paid {money} ({method}, {trade_no})',
    zh: '在线充值成功：{amount} 美元（{quota} 额度），实付 {money}（{method}，订单号 {trade_no}）',
  },
  'logDetail.task.refunded': {
    en: 'task {task_id} ({platform}) failed: refunded {quota} quota',
    zh: '异步任务 {task_id}（{platform}）执行失败，补偿 {quota} 额度',
  },
} as const satisfies DetailWords
