// Line icon paths for content blocks, drawn on a 24 × 24 grid.
export const iconNames = [
  'leaf',
  'hammer',
  'recycle',
  'shield',
  'wrench',
  'hand',
  'check',
  'arrow-left',
  'truck',
] as const
export type IconName = (typeof iconNames)[number]

export const iconPaths: Record<IconName, string> = {
  leaf: 'M5 19c0-9 6-14 15-14 0 9-5 15-14 15M5 19c3-4 6-7 10-9',
  hammer: 'M14 4l6 6-3 3-6-6zM11 7l-2-2 3-2 3 2M12 10L4 18a1.4 1.4 0 0 0 2 2l8-8',
  recycle:
    'M7 19H4.5a1.5 1.5 0 0 1-1.3-2.2L6 12M9.5 8.3 11 5.7a1.5 1.5 0 0 1 2.6 0L16 10M17 19h2.5a1.5 1.5 0 0 0 1.3-2.2L19.5 14.5M14 21l-3-2 3-2M4 9.5l2 2.6 3-1.2M17.6 6.9l-1.6 3.1-3.3-.6',
  shield: 'M12 3l8 3v6c0 5-3.5 8-8 9-4.5-1-8-4-8-9V6zM8.5 12l2.5 2.5 4.5-5',
  wrench: 'M15 4a5 5 0 0 0-5 6.5L4 16.5 7.5 20l6-6A5 5 0 0 0 20 9l-3 3-3-1-1-3 3-3z',
  hand: 'M8 13V5.5a1.5 1.5 0 0 1 3 0V12M11 11V4.5a1.5 1.5 0 0 1 3 0V12M14 11.5V6a1.5 1.5 0 0 1 3 0v8c0 4-2.5 7-6.5 7C8 21 6.5 19.5 5 17l-2-3.5a1.5 1.5 0 0 1 2.6-1.5L8 15',
  check: 'M5 12.5l4.5 4.5L19 7',
  'arrow-left': 'M19 12H5M11 6l-6 6 6 6',
  truck: 'M3 6h11v10H3zM14 10h4l3 3v3h-7M7.5 19a1.5 1.5 0 1 0 0-.1M17.5 19a1.5 1.5 0 1 0 0-.1',
}
