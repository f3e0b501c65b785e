/** Where "My profile" lives (a link in the account menu, a route of AppRouter). */
export const PROFILE_PATH = '/profile';
