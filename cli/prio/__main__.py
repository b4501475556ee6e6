from prio.cli.app import main

main()
