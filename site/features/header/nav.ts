export interface NavLink {
  label: string
  href: string
}

export interface NavGroup {
  id: string
  label: string
  links: NavLink[]
}

export const TOOLBOX: NavGroup = {
  id: 'toolbox',
  label: 'Toolbox',
  links: [
    { label: 'Whisker Oil', href: '/products/whisker-oil' },
    { label: 'Whisker Tamer', href: '/products/whisker-tamer' },
    { label: 'Whisker Wash', href: '/products/whisker-wash' },
    { label: 'Workforce Repair', href: '/products/repair' },
    { label: 'Accessories', href: '/products/accessories' },
  ],
}

export const COMING_SOON: NavGroup = {
  id: 'coming-soon',
  label: 'Coming Soon',
  links: [
    { label: 'HEAL HER', href: '/heal-her' },
    { label: 'X-TREME', href: '/x-treme' },
    { label: 'SUPPLY DROP', href: '/supply-drop' },
  ],
}

export const NAV_GROUPS: NavGroup[] = [TOOLBOX, COMING_SOON]

export const TOP_LINKS: NavLink[] = [
  { label: 'Shop', href: '/shop' },
  { label: 'About', href: '/about' },
]
