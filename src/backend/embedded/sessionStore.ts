/**
 * Where the session token survives a reload: localStorage in the browser (the database keeps only
 * its hash), memory in Node and in workers without storage.
 */
export interface SessionStore {
  load(): string | null;
  save(token: string | null): void;
}

/**
 * @example
 * const store = sessionStore('ninefold-helpdesk'); store.save(token); store.load(); // token
 */
export function sessionStore(key: string): SessionStore {
  const storage = (globalThis as { localStorage?: Storage }).localStorage;
  if (storage) {
    return {
      load: () => storage.getItem(key),
      save: (token) => (token === null ? storage.removeItem(key) : storage.setItem(key, token)),
    };
  }
  let token: string | null = null;
  return {
    load: () => token,
    save: (t) => {
      token = t;
    },
  };
}
