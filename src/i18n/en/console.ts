import { addWords } from '../words.ts'

/** English words of the console shell (top bar, sidebar, home, about, chat). */
export const consoleWords = {
  'nav.label': 'Main navigation',
  'nav.home': 'Home',
  'nav.chat': 'Chat',
  'nav.about': 'About',
  'nav.register': 'Register',
  'nav.reset': 'Reset password',
  'top.menu': 'Open the menu',
  'top.collapse': 'Collapse the sidebar',
  'top.expand': 'Expand the sidebar',
  'top.toDark': 'Switch to dark mode',
  'top.toLight': 'Switch to light mode',
  'top.language': 'Language',
  'top.register': 'Register',
  'top.account': 'Account menu',
  'top.settings': 'Settings',
  'top.loggedOut': 'signed out',
  'top.newYear': 'Happy New Year!',
  'top.springFestival': 'Happy Spring Festival!',
  'footer.credit': '{name} · an AI model gateway · source under the MIT licence',
  'notFound.title': 'page does not exist, check your browser address',
  'notFound.back': 'Back to home',
  'home.welcome': 'Welcome to {name}',
  'home.tagline':
    'One gateway for many AI providers. Create tokens, top up quota, follow your usage and compare model prices in one place.',
  'home.start': 'Get started',
  'home.console': 'Open my tokens',
  'home.pricing': 'See model pricing',
  'home.notice': 'Announcement',
  'home.featureKeysTitle': 'One key, every model',
  'home.featureKeysBody':
    'Create tokens with their own quota, expiry and model limits, and call every provider through one OpenAI-compatible API.',
  'home.featureQuotaTitle': 'Quota you control',
  'home.featureQuotaBody': 'Top up with redemption codes or online payment. Every request is metered, nothing is billed in advance.',
  'home.featureLogsTitle': 'Usage you can read',
  'home.featureLogsBody': 'Usage logs and the dashboard show what each token spent, on which model and when.',
  'home.embedded': 'Home page',
  'about.title': 'About',
  'about.empty': 'The administrator has not written an about page yet.',
  'about.embedded': 'About page',
  'chat.unset': 'admin has not set chat link',
  'chat.frame': 'Chat',
}

addWords('console', consoleWords, () => import('../zh-CN/console.ts'))
