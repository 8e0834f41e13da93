from ragassay.cli import main

main()
