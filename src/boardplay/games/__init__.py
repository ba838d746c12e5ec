"""The four games, each a package implementing the core contract."""
