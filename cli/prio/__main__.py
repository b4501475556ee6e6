from prio.app import main

main()
