/**
 * A small seeded PRNG (mulberry32) with the helpers demo data needs. Same seed, same data.
 *
 * @example
 * const r = prng(42); r.pick(['a', 'b']); r.int(1, 6);
 */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => {
    const item = items[Math.floor(next() * items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  };
  /** Picks by weight: `weighted([['new', 1], ['open', 3]])`. */
  const weighted = <T>(items: readonly (readonly [T, number])[]): T => {
    const total = items.reduce((s, [, w]) => s + w, 0);
    let x = next() * total;
    for (const [item, w] of items) {
      x -= w;
      if (x < 0) return item;
    }
    const last = items[items.length - 1];
    if (!last) throw new Error('weighted pick from an empty list');
    return last[0];
  };
  const chance = (p: number): boolean => next() < p;
  return { next, int, pick, weighted, chance };
}

export type Prng = ReturnType<typeof prng>;

export const FIRST_NAMES = [
  'Ana',
  'Ben',
  'Chloé',
  'David',
  'Elif',
  'Farid',
  'Greta',
  'Hugo',
  'Ines',
  'Jonas',
  'Kai',
  'Lena',
  'Mateo',
  'Nora',
  'Oskar',
  'Priya',
  'Quentin',
  'Rosa',
  'Sami',
  'Tess',
  'Umar',
  'Vera',
  'Wim',
  'Xenia',
  'Yusuf',
  'Zoe',
  'Amara',
  'Bruno',
  'Carla',
  'Dmitri',
  'Emma',
  'Felix',
  'Hana',
  'Ivo',
  'Julia',
  'Lars',
  'Mira',
  'Nils',
  'Olga',
];
export const LAST_NAMES = [
  'Andersen',
  'Becker',
  'Costa',
  'Dubois',
  'Eriksen',
  'Fischer',
  'García',
  'Hansen',
  'Ivanova',
  'Jensen',
  'Kowalski',
  'Lindqvist',
  'Moreau',
  'Nowak',
  'Okafor',
  'Petrov',
  'Rossi',
  'Schmidt',
  'Tanaka',
  'Urbanek',
  'Varga',
  'Weber',
  'Yilmaz',
  'Zimmermann',
  'Bianchi',
  'Novak',
  'Silva',
  'Kaya',
  'Müller',
  'Laine',
];

/** A believable full name and a matching e-mail in the reserved `.test` domain. */
export function person(r: Prng, domain: string, used: Set<string>): { name: string; email: string } {
  for (;;) {
    const first = r.pick(FIRST_NAMES);
    const last = r.pick(LAST_NAMES);
    const local = `${first}.${last}`
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase();
    const email = `${local}@${domain}`;
    if (used.has(email)) continue;
    used.add(email);
    return { name: `${first} ${last}`, email };
  }
}
