"""Creates or drops a throwaway PostgreSQL database for one run, with `psql` (no Python driver needed).

    postgres_database.py create URL NAME   prints the new database's URL
    postgres_database.py drop URL NAME
"""

import subprocess
import sys
import urllib.parse


def main(action, url, name):
    assert name.replace("_", "").isalnum(), name
    statement = f'CREATE DATABASE "{name}"' if action == "create" else f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'
    subprocess.run(["psql", url, "-v", "ON_ERROR_STOP=1", "-q", "-c", statement], check=True)
    if action == "create":
        parts = urllib.parse.urlsplit(url)
        print(urllib.parse.urlunsplit(parts._replace(path="/" + name)))


if __name__ == "__main__":
    main(*sys.argv[1:4])
