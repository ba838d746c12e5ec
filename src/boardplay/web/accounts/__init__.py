"""Accounts: who a player is across browsers (sign-up and sign-in with a password or a passkey,
sessions and their CSRF tokens, the device cookie, the seat tokens an account's browsers hold
and their end), the sign-in and sign-up throttles, and the ``/api/account`` routes."""
