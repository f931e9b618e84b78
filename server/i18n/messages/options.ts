/** Messages of the option calls (spec section 7, options). */
export const options = {
  'option.unknownKey': { en: 'key {key} is not a known option', zh: '{key} 不是已知的配置项' },
  'option.valueRequired': { en: 'value is required', zh: 'value 不能为空' },
  'option.valueType': { en: 'value must be a string, number or boolean', zh: 'value 必须是字符串、数字或布尔值' },
  'option.saved': { en: 'saved', zh: '已保存' },
  'option.ratiosReset': { en: 'model ratios reset to the defaults', zh: '模型倍率已重置为默认值' },
} as const
