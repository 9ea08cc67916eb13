/** The guest identity kept across visits: the lobby's signed token and who it names. */
export interface Session {
  userId: string;
  nickname: string;
  token: string;
}

const KEY = 'joke.session';

export function loadSession(): Session | null {
  try {
    const raw = localStorage.getItem(KEY);
    if (!raw) return null;
    const s = JSON.parse(raw) as Partial<Session>;
    return typeof s.token === 'string' && typeof s.userId === 'string' && typeof s.nickname === 'string'
      ? (s as Session)
      : null;
  } catch {
    return null;
  }
}

export function saveSession(s: Session): void {
  localStorage.setItem(KEY, JSON.stringify(s));
}

export function clearSession(): void {
  localStorage.removeItem(KEY);
}

export function currentToken(): string | null {
  return loadSession()?.token ?? null;
}
