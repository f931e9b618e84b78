/**
 * Imported first by prefs-stored.test.ts: preferences this version does not know, stored before
 * any store reads them (a host page's "zh-CN", a theme of another version).
 */
localStorage.setItem('tollgate:locale', JSON.stringify('zh-CN'))
localStorage.setItem('tollgate:theme', JSON.stringify('blue'))
