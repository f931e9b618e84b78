/** Messages of the account calls: registration, sign-in, the own account, invites (spec sections 7 and 8). */
export const account = {
  'account.registerClosed': { en: 'new registrations are closed by the administrator', zh: '管理员已关闭新用户注册' },
  'account.passwordRegisterClosed': {
    en: 'registration with a password is closed; use another sign-in method',
    zh: '管理员已关闭密码注册，请使用其他方式注册',
  },
  'account.emailAndCodeRequired': { en: 'e-mail address and verification code are required', zh: '请填写邮箱地址和验证码' },
  'account.codeWrong': { en: 'the verification code is wrong or has expired', zh: '验证码错误或已过期' },
  'account.nameOrEmailTaken': {
    en: 'the username (or e-mail) is already taken, or belongs to a cancelled account',
    zh: '用户名（或邮箱）已被占用，或属于已注销的账号',
  },
  'account.registered': { en: 'registered', zh: '注册成功' },
  'account.passwordLoginOff': {
    en: 'password login is turned off by the administrator; use another sign-in method',
    zh: '管理员已关闭密码登录，请使用其他方式登录',
  },
  'account.wrongCredentials': { en: 'wrong username or password, or the user has been banned', zh: '用户名或密码错误，或用户已被封禁' },
  'account.banned': { en: 'this user has been banned', zh: '该用户已被封禁' },
  'account.loggedIn': { en: 'logged in', zh: '登录成功' },
  'account.loggedOut': { en: 'logged out', zh: '已退出登录' },
  'account.usernameTaken': { en: 'the username is already taken', zh: '用户名已被占用' },
  'account.nothingChanged': { en: 'nothing changed', zh: '没有任何修改' },
  'account.passwordChanged': { en: 'password changed', zh: '密码已修改' },
  'account.infoUpdated': { en: 'user info updated', zh: '用户信息已更新' },
  'account.rootUndeletable': { en: 'the super administrator account cannot be deleted', zh: '超级管理员账号不能删除' },
  'account.deleted': { en: 'account deleted', zh: '账号已删除' },
  'account.inviteQuotaShort': { en: 'not enough invite quota to transfer', zh: '邀请额度不足，无法划转' },
  'account.transferred': { en: 'transferred', zh: '划转成功' },
  'account.bound': { en: 'bound', zh: '绑定成功' },
  'account.headerMismatch': {
    en: 'the New-API-User header does not name the signed-in user; sign in again',
    zh: 'New-API-User 请求头与当前登录用户不符，请重新登录',
  },
  'turnstile.missing': { en: 'the bot check has not finished yet; wait a few seconds and retry', zh: '人机验证尚未完成，请稍等几秒后重试' },
  'turnstile.failed': { en: 'the bot check failed; refresh the page and retry', zh: '人机验证未通过，请刷新页面后重试' },
  'turnstile.unreachable': { en: 'the bot check could not be verified right now; retry later', zh: '暂时无法校验人机验证，请稍后重试' },
} as const

/** Messages of the administrators' user management (spec sections 4, 7 and 8). */
export const users = {
  'users.notFound': { en: 'user not found', zh: '用户不存在' },
  'users.outranked': { en: 'no permission to act on a user of the same or a higher role', zh: '无权操作同级或更高角色的用户' },
  'users.roleTooHigh': {
    en: 'cannot create a user with a role equal to or higher than your own',
    zh: '不能创建与自己同级或更高角色的用户',
  },
  'users.nameTaken': {
    en: 'the username is already taken, or belongs to a cancelled account',
    zh: '用户名已被占用，或属于已注销的账号',
  },
  'users.created': { en: 'user account created', zh: '用户账号已创建' },
  'users.cancelledOnlyDelete': { en: 'this account is cancelled; it can only be deleted', zh: '该账号已注销，只能删除' },
  'users.onlyRootPromotes': { en: 'only the super administrator can promote users', zh: '只有超级管理员才能将用户提升为管理员' },
  'users.alreadyAdmin': { en: 'the user is already an administrator', zh: '该用户已经是管理员' },
  'users.rootNotDemoted': { en: 'the super administrator cannot be demoted', zh: '不能降级超级管理员' },
  'users.alreadyUser': { en: 'the user is already an ordinary user', zh: '该用户已经是普通用户' },
  'users.rootNotDisabled': { en: 'the super administrator cannot be disabled', zh: '不能禁用超级管理员' },
  'users.rootNotDeleted': { en: 'the super administrator cannot be deleted', zh: '不能删除超级管理员' },
  'users.done': { en: 'operation completed successfully', zh: '操作成功完成' },
  'users.changedMeanwhile': { en: 'the user changed meanwhile, reload and retry', zh: '该用户刚被修改过，请刷新后重试' },
  'users.idOrUsername': { en: 'id or username is required', zh: '请提供用户 ID 或用户名' },
  'users.groupName': { en: '{field} must be one group name without commas or spaces', zh: '{field} 必须是单个分组名，不能含逗号或空格' },
} as const
