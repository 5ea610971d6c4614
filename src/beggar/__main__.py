"""``python -m beggar`` runs the command line."""

from beggar.cli import main

if __name__ == "__main__":
    main()
