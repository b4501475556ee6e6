from prio.cli.entry import main

main()
