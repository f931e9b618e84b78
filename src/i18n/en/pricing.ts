import { addWords } from '../words.ts'

/** English words of the model pricing. */
export const pricingWords = {
  'pricing.description': 'What each model costs through the gateway.',
  'pricing.groupSignedOut': 'Prices for the {group} group (group ratio {ratio}). Sign in to see the prices of your own group.',
  'pricing.groupSignedIn': 'Prices for your group, {group} (group ratio {ratio}).',
  'pricing.search': 'Search models',
  'pricing.allBilling': 'All billing types',
  'pricing.perUsage': 'Per usage',
  'pricing.perCall': 'Per call',
  'pricing.availableOnly': 'Available to me only',
  'pricing.col.available': 'Available',
  'pricing.col.model': 'Model',
  'pricing.col.billing': 'Billing type',
  'pricing.col.price': 'Price',
  'pricing.available': 'Yes',
  'pricing.unavailable': 'Not in your group',
  'pricing.copyName': 'Copy {name}',
  'pricing.input': 'Prompt',
  'pricing.completion': 'Completion',
  'pricing.unit1M': '/ 1M tokens',
  'pricing.unitCall': 'per call',
  'pricing.quotaEquals': '= {quota} quota',
  'pricing.ratios': 'model ratio {model} · completion ratio {completion}',
  'pricing.count': '{n} of {total, plural, one {# model} other {# models}}',
  'pricing.noMatch': 'No model matches the search and filters',
  'pricing.emptyTitle': 'No models are priced yet',
  'pricing.emptyBody': 'Models appear here once an administrator adds channels that serve them.',
}

addWords('pricing', pricingWords, () => import('../zh-CN/pricing.ts'))
