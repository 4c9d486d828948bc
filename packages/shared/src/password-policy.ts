/** Password lengths every sign-in path accepts; the browser checks them before sending. */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;
